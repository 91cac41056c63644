import CoreValues
import EventLog
import PodcastDomain
import ThumbnailRenderer

extension Library {
    /// Renders the episode's thumbnail from its current inputs and returns the submission that records
    /// it: the stored variant (at most 1024 px, PNG with an overlay, JPEG without) as a blob, and a
    /// `recordThumbnail` command carrying the inputs it was drawn from.
    ///
    /// Rendering takes a tenth of a second or more, so it is done here, without the writer lock; the
    /// library stays free for other writers meanwhile. If the inputs change before the submission is
    /// decided, the domain refuses it (render again), so a thumbnail never records inputs it was not
    /// drawn from.
    public func renderThumbnail(of reference: EpisodeReference) throws -> Submission {
        let (id, inputs, workspace) = try thumbnailInputs(of: reference)
        let (thumbnail, bytes) = try ThumbnailDrawing.stored(inputs, fonts: try workspace.fonts(), blob: workspace.blob)
        return Submission(.episode(.id(id), .recordThumbnail(thumbnail)), blobs: [bytes])
    }

    /// The episode's thumbnail drawn full size from its current inputs, encoded as `format`: what an
    /// export writes. Nothing is recorded.
    public func exportThumbnail(of reference: EpisodeReference, format: ImageFormat) throws -> [UInt8] {
        let (_, inputs, workspace) = try thumbnailInputs(of: reference)
        return try ThumbnailDrawing.draw(inputs, fonts: try workspace.fonts(), blob: workspace.blob).encoded(as: format)
    }

    /// What the episode's thumbnail would be drawn from now, read without the lock.
    private func thumbnailInputs(of reference: EpisodeReference) throws -> (EpisodeID, ThumbnailInputs, Workspace) {
        let workspace = Workspace(log: store, readModel: try currentReadModel())
        let id = try workspace.resolve(reference)
        guard let inputs = try workspace.episode(id).requireLive().thumbnailInputs else { throw DomainError.renderNeedsBackground }
        return (id, inputs, workspace)
    }
}

/// Thumbnails drawn from an episode's inputs: the images and the font read by reference, the font
/// named in the settings looked up among the library's fonts (the renderer's default bold font when
/// none is named).
enum ThumbnailDrawing {
    static func draw(
        _ inputs: ThumbnailInputs, fonts: FontLibraryState, blob: (BlobRef) throws -> [UInt8]
    ) throws -> Thumbnail {
        try draw(inputs, font: try font(inputs.settings.fontName, fonts: fonts, blob: blob), blob: blob)
    }

    static func draw(_ inputs: ThumbnailInputs, font: ThumbnailFont, blob: (BlobRef) throws -> [UInt8]) throws -> Thumbnail {
        try ThumbnailRenderer.render(
            background: try blob(inputs.background.blob), overlay: try inputs.overlay.map { try blob($0.blob) },
            settings: inputs.settings, text: inputs.text, font: font)
    }

    /// The stored variant of the thumbnail, as a `recordThumbnail` command carries it, and its bytes.
    static func stored(
        _ inputs: ThumbnailInputs, fonts: FontLibraryState, blob: (BlobRef) throws -> [UInt8]
    ) throws -> (RenderedThumbnail, [UInt8]) {
        try stored(inputs, font: try font(inputs.settings.fontName, fonts: fonts, blob: blob), blob: blob)
    }

    /// The stored variant of the thumbnail drawn in `font`, and its bytes.
    static func stored(
        _ inputs: ThumbnailInputs, font: ThumbnailFont, blob: (BlobRef) throws -> [UInt8]
    ) throws -> (RenderedThumbnail, [UInt8]) {
        let drawn = try draw(inputs, font: font, blob: blob)
        let stored = try drawn.stored()
        let digest = ThumbnailInputDigest(inputs: inputs, font: font)
        var rendered = stored.rendered(blob: BlobStore.reference(for: stored.bytes), inputs: inputs, digest: digest)
        rendered.drawnFontSize = drawn.fontSize
        return (rendered, stored.bytes)
    }

    /// The font `name` calls for: an imported one, by name ignoring case, or the default bold font for nil.
    static func font(_ name: String?, fonts: FontLibraryState, blob: (BlobRef) throws -> [UInt8]) throws -> ThumbnailFont {
        guard let name else { return try ThumbnailFont.defaultBold() }
        guard let imported = fonts.font(named: name) else { throw DomainError.fontNotFound(name) }
        return try ThumbnailFont(bytes: try blob(imported.font))
    }
}
