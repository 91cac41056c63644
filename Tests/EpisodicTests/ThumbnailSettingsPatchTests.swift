import Episodic
import Foundation
import Testing

/// The thumbnail settings are described once, in ``ThumbnailSettingsPatch``; these checks hold that one
/// description to the domain's settings.
@Suite("Thumbnail settings patch")
struct ThumbnailSettingsPatchTests {
    static func patch(_ json: String) throws -> ThumbnailSettingsPatch {
        try JSONDecoder().decode(ThumbnailSettingsPatch.self, from: Data(json.utf8))
    }

    @Test("a patch names every setting the domain has, and no other")
    func everySetting() {
        let stored = Set(Mirror(reflecting: ThumbnailSettings()).children.compactMap(\.label))
        #expect(Set(ThumbnailSettingsPatch.keys) == stored)
        #expect(ThumbnailSettingsPatch.keys.allSatisfy { ThumbnailSettingsPatch.expectedValue(of: $0) != nil })
        #expect(ThumbnailSettingsPatch.expectedValue(of: "fontColour") == nil)
    }

    @Test("each setting given replaces that setting only")
    func appliesEachSettingAlone() throws {
        let values: [String: String] = [
            "fontName": #""Inter""#, "fontSize": "30", "textPositionX": "0.25", "textPositionY": "0.75",
            "horizontalPadding": "10", "verticalPadding": "12", "canvasWidth": "1280", "canvasHeight": "720",
            "backgroundScaling": #""stretch""#, "fontColorHex": ##""#FFCC00""##, "outlineEnabled": "false",
            "outlineColorHex": ##""#112233""##, "textFit": #""wrap""#, "overlayPlacement": #""original""#,
            "overlayScale": "0.5", "overlayPositionX": "0", "overlayPositionY": "1",
        ]
        #expect(Set(values.keys) == Set(ThumbnailSettingsPatch.keys))
        let before = ThumbnailSettings()
        let fields = Dictionary(uniqueKeysWithValues: Mirror(reflecting: before).children.map { ($0.label!, "\($0.value)") })
        for (key, value) in values {
            let after = try Self.patch("{\"\(key)\":\(value)}").applied(to: before)
            let changed = Mirror(reflecting: after).children.filter { fields[$0.label!] != "\($0.value)" }.map { $0.label! }
            #expect(changed == [key], "\(key)")
        }
    }

    @Test("null sets the default font, is refused for any other setting, and a whole number must be whole")
    func nullsAndWholeNumbers() throws {
        #expect(try Self.patch(#"{"fontName":null}"#).applied(to: ThumbnailSettings(fontName: "Inter")).fontName == nil)
        #expect(try Self.patch("{}").applied(to: ThumbnailSettings(fontName: "Inter")).fontName == "Inter")
        #expect(throws: DecodingError.self) { try Self.patch(#"{"fontSize":null}"#) }
        let error = #expect(throws: DecodingError.self) { try Self.patch(#"{"canvasWidth":1920.5}"#) }
        guard case .typeMismatch(_, let context)? = error else {
            Issue.record("expected a type mismatch, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["canvasWidth"])
    }
}
