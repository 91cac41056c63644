import CoreValues
import EventLog
import PodcastDomain
import Testing
import ThumbnailRenderer

/// The digest of a render's inputs: it moves with everything that is drawn, and only with that.
@Suite("Input digest")
struct InputDigestTests {
    let background = BlobStore.reference(for: TestImages.background)
    let overlay = BlobStore.reference(for: TestImages.overlay)
    let font = TestImages.font.identity

    func digest(
        background: BlobRef? = nil, overlay: BlobRef?? = .none, settings: ThumbnailSettings = .defaults,
        text: String = "EP 42", font: BlobRef? = nil
    ) -> ThumbnailInputDigest {
        ThumbnailInputDigest(
            background: background ?? self.background, overlay: overlay ?? self.overlay, settings: settings, text: text,
            font: font ?? self.font)
    }

    @Test("the same inputs give the same digest: 64 lowercase hex digits")
    func stable() {
        #expect(digest() == digest())
        #expect(BlobRef(sha256: digest().sha256, byteCount: 0) != nil)
    }

    @Test("a change to any image, the font, the text or any drawn setting changes the digest")
    func everyInputCounts() {
        var changed: [ThumbnailInputDigest] = [
            digest(background: overlay), digest(overlay: .some(nil)), digest(overlay: background), digest(font: overlay),
            digest(text: "EP 43"), digest(text: "EP 42 "),
        ]
        let settingChanges: [(inout ThumbnailSettings) -> Void] = [
            { $0.fontSize = 73 }, { $0.textPositionX = 0 }, { $0.textPositionY = 1 }, { $0.horizontalPadding = 41 },
            { $0.verticalPadding = 39 }, { $0.canvasWidth = 1280 }, { $0.canvasHeight = 720 },
            { $0.backgroundScaling = .stretch }, { $0.fontColorHex = .black }, { $0.outlineEnabled = false },
            { $0.outlineColorHex = .white }, { $0.textFit = .wrap }, { $0.textFit = .none },
            { $0.overlayPlacement = .fill }, { $0.overlayPlacement = .original }, { $0.overlayScale = 0.5 },
            { $0.overlayPositionX = 0 }, { $0.overlayPositionY = 1 },
        ]
        for change in settingChanges {
            var settings = ThumbnailSettings.defaults
            change(&settings)
            changed.append(digest(settings: settings))
        }
        #expect(Set(changed + [digest()]).count == changed.count + 1)
    }

    @Test("the font counts by its bytes, not its name; -0 counts as 0")
    func whatDoesNotCount() {
        var renamed = ThumbnailSettings.defaults
        renamed.fontName = "DejaVu Sans Bold"
        #expect(digest(settings: renamed) == digest())
        var negativeZero = ThumbnailSettings.defaults
        negativeZero.horizontalPadding = -0.0
        var zero = ThumbnailSettings.defaults
        zero.horizontalPadding = 0
        #expect(digest(settings: negativeZero) == digest(settings: zero))
    }

    @Test("every setting is in the digest: a new one must be added to it (then this list)")
    func noSettingForgotten() {
        let names = Mirror(reflecting: ThumbnailSettings.defaults).children.compactMap(\.label)
        #expect(names == [
            "fontName", "fontSize", "textPositionX", "textPositionY", "horizontalPadding", "verticalPadding", "canvasWidth",
            "canvasHeight", "backgroundScaling", "fontColorHex", "outlineEnabled", "outlineColorHex", "textFit",
            "overlayPlacement", "overlayScale", "overlayPositionX", "overlayPositionY",
        ])
    }

    @Test("the digest of an episode's thumbnail inputs is the digest of what they draw")
    func fromInputs() {
        let inputs = ThumbnailInputs(
            title: "Pilot", number: 42, text: "EP 42", settings: .defaults,
            background: ImageRef(blob: background, width: 96, height: 128), overlay: ImageRef(blob: overlay, width: 320, height: 90))
        #expect(ThumbnailInputDigest(inputs: inputs, font: TestImages.font) == digest())
    }
}
