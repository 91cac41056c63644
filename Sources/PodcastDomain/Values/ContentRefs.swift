import CoreValues

/// An image in the blob store, with its size in pixels so that lists and rules never open it.
public struct ImageRef: Hashable, Sendable, Codable {
    public var blob: BlobRef
    /// Pixels, each side 1 to 16384.
    public var width: Int
    public var height: Int

    public static let sides: ClosedRange<Int> = 1...16_384

    public init(blob: BlobRef, width: Int, height: Int) {
        self.blob = blob
        self.width = width
        self.height = height
    }
}

/// SRT subtitles in the blob store, and the transcript they were made from: when that is no longer the
/// episode's transcript, the subtitles are out of date.
public struct SubtitlesRef: Hashable, Sendable, Codable {
    public var blob: BlobRef
    public var cueCount: Int
    public var transcript: BlobRef

    public init(blob: BlobRef, cueCount: Int, transcript: BlobRef) {
        self.blob = blob
        self.cueCount = cueCount
        self.transcript = transcript
    }
}

/// What a rendered thumbnail was drawn from. When the episode's current inputs differ, the thumbnail
/// is out of date.
public struct ThumbnailInputs: Hashable, Sendable, Codable {
    public var title: String
    public var number: Int
    public var text: String
    public var settings: ThumbnailSettings
    public var background: ImageRef
    public var overlay: ImageRef?

    public init(title: String, number: Int, text: String, settings: ThumbnailSettings, background: ImageRef, overlay: ImageRef?) {
        self.title = title
        self.number = number
        self.text = text
        self.settings = settings
        self.background = background
        self.overlay = overlay
    }
}

/// A rendered thumbnail as stored: at most 1024 px on its longest side.
public struct RenderedThumbnail: Hashable, Sendable, Codable {
    /// The renderer's choice, from the pixels it drew: JPEG for an opaque image, PNG for one with
    /// transparency. Renders recorded before that choice are PNG wherever an overlay was drawn.
    public enum Format: String, Hashable, Sendable, Codable, CaseIterable {
        case jpeg, png
    }

    public var image: ImageRef
    public var format: Format
    public var inputs: ThumbnailInputs
    /// The renderer's digest of everything drawn (images and font by their bytes, every setting, the
    /// text, the renderer's version): 64 lowercase hex digits. Nil in renders recorded before it was
    /// kept. It tells two renders apart even where `inputs` cannot, such as a font re-imported under
    /// the same name with other bytes.
    public var inputsDigest: String?
    /// The size the text was drawn at, in points: the settings' size, or less where
    /// ``TextFit/shrink`` made the text smaller to fit.
    public var drawnFontSize: Double
    /// Whether the font it was drawn in has been removed from the library since (``ThumbnailFontRemoved``),
    /// which makes it outdated: drawn again, it would not look the same.
    public var fontRemoved: Bool

    public init(
        image: ImageRef, format: Format, inputs: ThumbnailInputs, inputsDigest: String? = nil, drawnFontSize: Double? = nil,
        fontRemoved: Bool = false
    ) {
        self.image = image
        self.format = format
        self.inputs = inputs
        self.inputsDigest = inputsDigest
        self.drawnFontSize = drawnFontSize ?? inputs.settings.fontSize
        self.fontRemoved = fontRemoved
    }
}
