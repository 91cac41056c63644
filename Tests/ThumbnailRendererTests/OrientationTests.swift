import PodcastDomain
import Testing
import ThumbnailRenderer

/// Photos the right way up: a JPEG's Exif orientation is applied to backgrounds and overlays, counted in
/// the size the probe reports, and not carried into what is stored.
@Suite("Orientation")
struct OrientationTests {
    @Test("a background photo in each of the eight orientations is drawn the same way up", arguments: 1...8)
    func background(orientation: Int) throws {
        // Given the upright picture stored as a camera held some way stores it, with the tag saying so
        let photo = try ExifPhotos.photo(of: ExifPhotos.upright, orientation: orientation, bigEndian: orientation % 2 == 0)

        // When it is drawn as the background, fitted whole (so that its shape shows), without text
        let png = try render(background: photo, settings: TestImages.settings(scaling: .aspectFit))

        // Then it matches the one upright golden
        try Goldens.check(png, matches: "orientation-background")
    }

    @Test("an overlay photo in each of the eight orientations is drawn the same way up", arguments: 1...8)
    func overlay(orientation: Int) throws {
        // Given the upright picture stored turned, as an overlay at half its size in the top-right corner
        let photo = try ExifPhotos.photo(of: ExifPhotos.upright, orientation: orientation)
        var settings = TestImages.settings()
        settings.overlayPlacement = .original
        settings.overlayScale = 0.5
        settings.placeOverlay(at: .topRight)

        // When it is drawn over the test background
        let png = try render(background: TestImages.background, overlay: photo, settings: settings)

        // Then it matches the one upright golden
        try Goldens.check(png, matches: "orientation-overlay")
    }

    @Test("the probe gives the size as seen: a photo turned a quarter is as wide as it is stored high")
    func probedSize() throws {
        for orientation in 1...8 {
            let photo = try ExifPhotos.photo(of: ExifPhotos.upright, orientation: orientation)
            #expect(try ImageProbe.probe(photo) == ImageInfo(format: .jpeg, width: 96, height: 64), "\(orientation)")
        }
    }

    @Test("a JPEG whose Exif segment is cut short or damaged is drawn unturned, not refused")
    func damagedExif() throws {
        // Given a picture stored turned a quarter, whose Exif segment says 6 but is cut before the tag
        let whole = ExifPhotos.exif(orientation: 6, bigEndian: true)
        let stored = try ExifPhotos.upright.turnedCounterclockwise().encoded(as: .jpeg)
        let photo = ExifPhotos.inserting(app1: Array(whole.prefix(whole.count - 12)), into: stored)

        // When it is probed, then it is the stored picture, unturned
        #expect(try ImageProbe.probe(photo) == ImageInfo(format: .jpeg, width: 64, height: 96))
        #expect(try PixelBuffer(decoding: photo).width == 64)
    }

    @Test("the stored thumbnail, drawn from a turned photo, carries no Exif segment to turn it again")
    func storedHasNoExif() throws {
        // Given a background photo tagged as turned a quarter
        let photo = try ExifPhotos.photo(of: ExifPhotos.upright, orientation: 6)

        // When it is rendered and stored (JPEG, as there is no overlay), and exported as JPEG
        let thumbnail = try ThumbnailRenderer.render(
            background: photo, overlay: nil, settings: TestImages.settings(), text: TestImages.text, font: TestImages.font)
        let stored = try thumbnail.stored(), exported = try thumbnail.encoded(as: .jpeg)

        // Then neither holds an APP1 Exif segment, while the photo did
        #expect(stored.format == .jpeg)
        #expect(!ExifPhotos.app1Segments(of: stored.bytes).contains { $0.starts(with: Array("Exif".utf8)) })
        #expect(!ExifPhotos.app1Segments(of: exported).contains { $0.starts(with: Array("Exif".utf8)) })
        #expect(ExifPhotos.app1Segments(of: photo).contains { $0.starts(with: Array("Exif".utf8)) })
    }

    private func render(background: [UInt8], overlay: [UInt8]? = nil, settings: ThumbnailSettings) throws -> [UInt8] {
        try ThumbnailRenderer.render(background: background, overlay: overlay, settings: settings, text: "", font: TestImages.font)
            .encoded(as: .png)
    }
}
