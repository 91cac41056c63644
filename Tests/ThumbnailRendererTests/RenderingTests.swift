import CoreValues
import EventLog
import Foundation
import PodcastDomain
import TestSupport
import Testing
import ThumbnailRenderer

/// What a render takes and gives besides its pixels: refusals of bad inputs, the stored size and format,
/// the export format, and fonts given as bytes.
@Suite("Rendering")
struct RenderingTests {
    @Test("a bad background or overlay is refused, naming which image and what is wrong with it")
    func badImages() {
        #expect(throws: ThumbnailError.background(.damaged(.png))) { try render(background: BadImages.truncatedPNG) }
        #expect(throws: ThumbnailError.overlay(.notAnImage)) { try render(overlay: BadImages.text) }
        #expect(ThumbnailError.background(.notAnImage).description
            == "the background image cannot be used: this is not a PNG or JPEG image. Export the picture as PNG or JPEG and try again.")
    }

    @Test("settings the domain would refuse are refused with the domain's message")
    func badSettings() {
        var settings = TestImages.settings()
        settings.canvasWidth = 0
        #expect(throws: ThumbnailError.settings(.settingOutOfRange(setting: "canvasWidth", value: "0", allowed: "16 to 8192 pixels"))) {
            try render(settings: settings)
        }
        settings = TestImages.settings()
        settings.fontSize = .nan
        #expect(throws: ThumbnailError.settings(.settingOutOfRange(setting: "fontSize", value: "nan", allowed: "12.0 to 200.0"))) {
            try render(settings: settings)
        }
    }

    @Test("stored: at most 1024 pixels on the longest side, as JPEG, with an overlay too, since a render is opaque")
    func stored() throws {
        // Given full HD, portrait and small canvases
        var landscape = TestImages.settings()
        (landscape.canvasWidth, landscape.canvasHeight) = (1920, 1080)
        var portrait = landscape
        (portrait.canvasWidth, portrait.canvasHeight) = (1080, 1920)

        // When each is rendered and stored
        let plain = try render(settings: landscape).stored()
        let overlaid = try render(settings: portrait, overlay: TestImages.overlay).stored()
        let small = try render().stored()

        // Then they shrink to 1024 on the longest side (never grow), in the format their bytes say
        #expect((plain.width, plain.height, plain.format) == (1024, 576, .jpeg))
        #expect(try ImageProbe.probe(plain.bytes) == ImageInfo(format: .jpeg, width: 1024, height: 576))
        #expect((overlaid.width, overlaid.height, overlaid.format) == (576, 1024, .jpeg))
        #expect(try ImageProbe.probe(overlaid.bytes) == ImageInfo(format: .jpeg, width: 576, height: 1024))
        #expect((small.width, small.height, small.format) == (160, 90, .jpeg))
    }

    @Test("the codecs' share, which the benchmark times apart, is the render's own: decoding refuses what a render refuses, and storing is shrinking then encoding")
    func codecsApart() throws {
        // Given inputs a render refuses, and inputs it takes
        var unusable = TestImages.settings()
        unusable.canvasWidth = 0
        func decodeOnly(background: [UInt8] = TestImages.background, overlay: [UInt8]? = nil, settings: ThumbnailSettings = TestImages.settings()) throws {
            try ThumbnailRenderer.decodeOnly(background: background, overlay: overlay, settings: settings)
        }

        // Then decoding alone refuses them with the render's errors, and takes the others
        #expect(throws: ThumbnailError.background(.damaged(.png))) { try decodeOnly(background: BadImages.truncatedPNG) }
        #expect(throws: ThumbnailError.overlay(.notAnImage)) { try decodeOnly(overlay: BadImages.text) }
        #expect(throws: ThumbnailError.settings(.settingOutOfRange(setting: "canvasWidth", value: "0", allowed: "16 to 8192 pixels"))) {
            try decodeOnly(settings: unusable)
        }
        try decodeOnly(overlay: TestImages.overlay)

        // When a full HD thumbnail is shrunk for storage and encoded in the stored format
        var landscape = TestImages.settings()
        (landscape.canvasWidth, landscape.canvasHeight) = (1920, 1080)
        let thumbnail = try render(settings: landscape, overlay: TestImages.overlay)
        let small = try thumbnail.shrunkForStorage()

        // Then that is the stored thumbnail, byte for byte
        #expect((small.width, small.height, small.storedFormat) == (1024, 576, .jpeg))
        #expect(try small.encodedForStorage() == thumbnail.stored().bytes)
    }

    @Test("a stored thumbnail is what the domain accepts as a render of the episode's inputs")
    func storedFitsTheDomain() throws {
        // Given an episode with a background and an overlay
        let background = ImageRef(blob: BlobStore.reference(for: TestImages.background), width: 96, height: 128)
        let overlay = ImageRef(blob: BlobStore.reference(for: TestImages.overlay), width: 320, height: 90)
        let episode = Episode(
            id: EpisodeID(UUID()), podcastID: PodcastID(UUID()), title: "Pilot", number: 42,
            createdAt: TestClock.start, background: background, overlay: overlay)
        let inputs = try #require(episode.thumbnailInputs)

        // When it is rendered from those inputs and stored
        let stored = try ThumbnailRenderer.render(
            background: TestImages.background, overlay: TestImages.overlay, settings: inputs.settings, text: inputs.text,
            font: TestImages.font
        ).stored()
        let thumbnail = stored.rendered(blob: BlobStore.reference(for: stored.bytes), inputs: inputs)

        // Then recording it is accepted
        let events = try EpisodeDecider.decide(.recordThumbnail(thumbnail), .active(episode), EpisodeFacts(podcast: .initial))
        #expect(events.count == 1)
    }

    @Test("the export format follows the file's extension, in any case")
    func exportFormat() throws {
        #expect(try ImageFormat(exportPath: "out/EP42.png") == .png)
        #expect(try ImageFormat(exportPath: "EP42.JPG") == .jpeg)
        #expect(try ImageFormat(exportPath: "/tmp/a.b/EP42.jpeg") == .jpeg)
        #expect(throws: ThumbnailError.unknownExportExtension(path: "EP42.gif")) { try ImageFormat(exportPath: "EP42.gif") }
        #expect(throws: ThumbnailError.unknownExportExtension(path: "/tmp/a.png/EP42")) { try ImageFormat(exportPath: "/tmp/a.png/EP42") }
    }

    @Test("a font given as bytes draws as its file does, and has the same identity")
    func fontBytes() throws {
        // Given the default font read from its file, and the same bytes given as bytes
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: ThumbnailFont.defaultBoldPath)))
        let fromBytes = try ThumbnailFont(bytes: bytes)

        // When a thumbnail is drawn with each
        let drawn = try render(font: fromBytes).encoded(as: .png)

        // Then the identity and the pixels are the same; the bytes went to a file named by their sha256
        #expect(fromBytes.identity == TestImages.font.identity)
        #expect(fromBytes.identity == BlobStore.reference(for: bytes))
        #expect(fromBytes.path.hasSuffix("/episodic-fonts/\(fromBytes.identity.sha256).font"))
        #expect(drawn == (try render().encoded(as: .png)))
    }

    @Test("a missing font file, or bytes that are not a font, are refused")
    func badFonts() {
        #expect(throws: ThumbnailError.fontUnusable(path: "/nonexistent/font.ttf", reason: "there is no readable file there")) {
            try ThumbnailFont(file: "/nonexistent/font.ttf")
        }
        #expect {
            try ThumbnailFont(bytes: BadImages.text)
        } throws: { error in
            guard case .fontUnusable(_, let reason) = error as? ThumbnailError else { return false }
            return !reason.isEmpty
        }
    }

    private func render(
        background: [UInt8] = TestImages.background, settings: ThumbnailSettings = TestImages.settings(),
        overlay: [UInt8]? = nil, font: ThumbnailFont = TestImages.font
    ) throws -> Thumbnail {
        try ThumbnailRenderer.render(background: background, overlay: overlay, settings: settings, text: TestImages.text, font: font)
    }
}
