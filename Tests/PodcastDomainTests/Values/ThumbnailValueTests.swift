import Testing

@testable import PodcastDomain

/// What the renderer reads from the domain: the text presets as the settings' two fractions, the
/// settings' rules, and the stored format.
@Suite("Thumbnail values")
struct ThumbnailValueTests {
    @Test("each preset survives the trip through the settings' fractions; the default is the centre")
    func roundTrip() {
        for position in TextPosition.allCases {
            var settings = ThumbnailSettings.defaults
            settings.placeText(at: position)
            #expect(settings.textPosition == position)
        }
        #expect(ThumbnailSettings.defaults.textPosition == .center)
    }

    @Test("fractions between presets name none")
    func between() {
        var settings = ThumbnailSettings.defaults
        settings.textPositionX = 0.25
        #expect(settings.textPosition == nil)
    }

    @Test("validated settings are the ones a command stores, or the rule they break")
    func validated() throws {
        var settings = ThumbnailSettings.defaults
        settings.fontName = "  Inter Bold "
        #expect(try settings.validated().fontName == "Inter Bold")
        settings.fontSize = 300
        #expect(throws: DomainError.settingOutOfRange(setting: "fontSize", value: "300.0", allowed: "12.0 to 200.0")) {
            try settings.validated()
        }
    }
}
