import CoreValues
import Episodic
import Foundation
import TestSupport
import Testing

/// schemas/commands/examples.jsonl holds the lines tools/check-schemas validates against the command
/// schemas. These tests hold them to the other side too: `episodic submit` must read every one, as
/// the command it names, so that the schemas and their examples never promise a line the parser
/// refuses.
@Suite("Command schema examples")
struct CommandSchemaExamplesTests {
    /// schemas/commands/examples.jsonl, found from this file: Tests/EpisodicCLITests/ is two folders down.
    static let examplesPath = RepositoryFiles.path("schemas/commands/examples.jsonl")

    /// Tests/ThumbnailRendererTests/Fixtures/overlay.png, a whole PNG, found from this file.
    static let imagePath = URL(fileURLWithPath: RepositoryFiles.image("overlay.png"))

    /// A file's content, for the lines that name one by path: a real image for an image path and a real
    /// font for a font path, as the parser checks them and refuses anything else, and a transcript otherwise.
    static func readFile(_ path: String, _ limit: Int?) throws -> [UInt8] {
        if path.hasSuffix(".ttf") { return Array(try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"))) }
        guard path.hasSuffix(".png") || path.hasSuffix(".jpg") else { return Array("00:00:01\nA\nHi.\n".utf8) }
        return Array(try Data(contentsOf: imagePath))
    }

    /// The file's lines that hold a command, with their line numbers (from 1).
    static func exampleLines() throws -> [(number: Int, text: String)] {
        let text = try String(contentsOfFile: examplesPath, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { !$0.element.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { (number: $0.offset + 1, text: String($0.element)) }
    }

    static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("the parser reads every example line, as the command it names")
    func everyLineIsAccepted() throws {
        let lines = try Self.exampleLines()
        #expect(lines.count >= 16, "examples.jsonl should hold at least one line per command")
        for (number, line) in lines {
            let named = try Self.object(line)["command"] as? String
            do {
                let submissions = try Script.parse(line, now: Timestamp(rawValue: 0)!, readFile: Self.readFile)
                #expect(submissions.count == 1, "examples.jsonl:\(number)")
                #expect(submissions.first?.name == named, "examples.jsonl:\(number): \(line)")
            } catch {
                Issue.record("examples.jsonl:\(number) is refused: \(error)\n\(line)")
            }
        }
    }

    @Test("the whole file reads as one script, as `episodic submit` would read it")
    func wholeFileIsOneScript() throws {
        let text = try String(contentsOfFile: Self.examplesPath, encoding: .utf8)
        let submissions = try Script.parse(text, now: Timestamp(rawValue: 0)!, readFile: Self.readFile)
        let names = try Self.exampleLines().map { try Self.object($0.text)["command"] as? String }
        #expect(submissions.map(\.name) == names)
    }

    /// The parser refuses a settings key that is not in `ThumbnailSettingsPatch.keys`: the schema must
    /// name the same settings, or it would promise one the parser refuses or allow one it does not know.
    @Test("the schema's thumbnail settings are the patch's keys")
    func settingsKeysAreTheSchemas() throws {
        let path = URL(fileURLWithPath: Self.examplesPath).deletingLastPathComponent()
            .appendingPathComponent("definitions.schema.json").path
        let definitions = try Self.object(try String(contentsOfFile: path, encoding: .utf8))
        let settings = (definitions["$defs"] as? [String: Any])?["ThumbnailSettings"] as? [String: Any]
        let properties = try #require(settings?["properties"] as? [String: Any])
        #expect(Set(properties.keys) == Set(ThumbnailSettingsPatch.keys))
    }

    /// The parser refuses a key not in `ThumbnailSettingsPatch.keys`, but that list could name a key the
    /// decoder does not read, so acceptance alone would not catch it: each key given must reach the patch.
    @Test("every settings key in the examples is one the parser reads")
    func settingsKeysAreRead() throws {
        var checked = 0
        for (number, line) in try Self.exampleLines() {
            guard let settings = try Self.object(line)["settings"] as? [String: Any] else { continue }
            let submission = try #require(
                try Script.parse(line, now: Timestamp(rawValue: 0)!, readFile: Self.readFile).first,
                "examples.jsonl:\(number)")
            let patch: ThumbnailSettingsPatch
            switch submission.action {
            case .patchThumbnailDefaults(_, let given), .patchThumbnailSettings(_, let given): patch = given
            default:
                Issue.record("examples.jsonl:\(number): settings given, but \(submission.name) does not patch settings")
                continue
            }
            // A stored property is given when its outer optional holds something (for fontName, even nil).
            let given = Set(Mirror(reflecting: patch).children.compactMap { child -> String? in
                Mirror(reflecting: child.value).children.isEmpty ? nil : child.label
            })
            #expect(given == Set(settings.keys), "examples.jsonl:\(number): \(line)")
            checked += 1
        }
        #expect(checked > 0, "examples.jsonl should hold settings")
    }
}
