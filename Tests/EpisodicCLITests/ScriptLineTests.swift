import CoreValues
import Episodic
import Foundation
import PodcastDomain
import Testing

/// The lines `episodic submit` must refuse rather than guess at: each refusal is a ScriptError whose
/// message names the field at fault, so that a script's author can find it in a long script.
@Suite("Script lines")
struct ScriptLineTests {
    /// Every file a line names holds this transcript (so an image path holds no image).
    static func readFile(_ path: String, _ limit: Int?) throws -> [UInt8] { Array("00:00:01\nA\nHi.\n".utf8) }

    /// The one submission of the one-line script `line`.
    static func submission(_ line: String) throws -> Submission {
        let submissions = try Script.parse(line, now: Timestamp(rawValue: 0)!, readFile: readFile)
        #expect(submissions.count == 1)
        return try #require(submissions.first)
    }

    /// Why the one-line script `line` is refused; fails the test when it is taken.
    static func refusal(_ line: String) throws -> ScriptError {
        let error = #expect(throws: ScriptError.self, "should be refused: \(line)") {
            try Script.parse(line, now: Timestamp(rawValue: 0)!, readFile: readFile)
        }
        let refusal = try #require(error)
        #expect(refusal.line == 1)
        return refusal
    }

    @Test("lines may end in CR LF and be padded with any white space; blank lines count for line numbers")
    func lineEnds() throws {
        let script = "{\"command\":\"podcast.create\",\"name\":\"A\"}\r\n\r\n\u{A0}\t{\"command\":\"podcast.create\",\"name\":\"B\"}\u{2003}\r\n"
        let lines = try Script.lines(script, now: Timestamp(rawValue: 0)!, readFile: Self.readFile)
        #expect(lines.map(\.line) == [1, 3])
        #expect(lines.map(\.submission.name) == ["podcast.create", "podcast.create"])
        let refused = #expect(throws: ScriptError.self) {
            try Script.lines("{\"command\":\"podcast.create\",\"name\":\"A\"}\r\n\u{A0}nope\r\n", now: Timestamp(rawValue: 0)!, readFile: Self.readFile)
        }
        #expect(refused?.line == 2)
    }

    // MARK: JSON

    @Test("a line that is not exactly one JSON object, as RFC 8259 writes it, is refused as not JSON", arguments: [
        #"{"#, #"[]"#, #""podcast.create""#, #"null"#, #"{"command":"podcast.create","name":"A"} x"#,
        #"{"command":"podcast.create","name":"A"}{}"#, #"{"command":"podcast.create","name":"A",}"#,
        #"{'command':'podcast.create','name':'A'}"#, #"{"command":"podcast.create","name":"A""#,
        #"{"command":"podcast.create","name":"\x41"}"#, #"{"command":"podcast.create","name":"\u00e"}"#,
        #"{"command":"podcast.create","name":"\ud800"}"#, #"{"command":"podcast.create","name":"\udc00"}"#, #"{"command":"podcast.create","name":"\udc00\ud800"}"#,
        #"{"command":"podcast.create","name":"\ud800\u0041"}"#, "{\"command\":\"podcast.create\",\"name\":\"A\tB\"}",
        #"{"command":"episode.renumber","episode":"S/1","number":01}"#, #"{"command":"episode.renumber","episode":"S/1","number":1.}"#,
        #"{"command":"episode.renumber","episode":"S/1","number":.5}"#, #"{"command":"episode.renumber","episode":"S/1","number":+1}"#,
        #"{"command":"episode.renumber","episode":"S/1","number":1e}"#, #"{"command":"episode.renumber","episode":"S/1","number":-}"#,
        #"{"command":"episode.renumber","episode":"S/1","number":1e400}"#, #"{"command":"episode.renumber","episode":"S/1","number":1-2}"#,
        #"{"command":"episode.renumber","episode":"S/1","number":tru}"#, #"{"command":"podcast.create","name":"A","description":nul}"#,
        #"{"command":"podcast.create","name":"A","x":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}",
    ])
    func notJSON(line: String) throws {
        let error = try Self.refusal(line)
        #expect(error.reason == .notJSON)
        #expect(error.description == #"line 1: it is not a JSON object. Write one command per line, e.g. {"command":"podcast.create","name":"My Show"}."#)
    }

    @Test("a key given twice in one object is refused, and named, rather than one of them taken", arguments: [
        (#"{"command":"podcast.create","name":"A","name":"B"}"#, "name"),
        (#"{"command":"thumbnail.settings","episode":"S/1","settings":{"fontSize":40,"fontSize":50}}"#, "fontSize"),
    ])
    func repeatedKey(line: String, key: String) throws {
        let error = try Self.refusal(line)
        #expect(error.reason == .repeated(key))
        #expect(error.description == "line 1: \"\(key)\" is given twice. Keep one.")
    }

    @Test("what JSON allows is read as JSON says: every escape, surrogate pairs, numbers in any of its forms, white space between tokens, a byte order mark")
    func readAsJSONSays() throws {
        // Given a title with every escape JSON has, and numbers written in each of JSON's forms
        let title = #" \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00 é "#
        let retitle = try Self.submission("\u{FEFF} { \"command\" : \"episode.retitle\" ,\t\"episode\":\"S/1\", \"title\" : \"\(title)\" } ")
        let numbers = try ["15", "15.0", "1.5e1", "150E-1", "1.5e+1", "-0"].map {
            try Self.submission(#"{"command":"episode.renumber","episode":"S/1","number":\#($0)}"#)
        }

        // Then the text is what the escapes stand for, and each number is the integer it is
        guard case .episode(_, .retitle(let read)) = retitle.action else { Issue.record("not a retitle: \(retitle.action)"); return }
        #expect(read == " \" \\ / \u{08} \u{0C} \n \r \t é 😀 é ")
        let read2 = numbers.map { submission -> Int? in
            guard case .episode(_, .renumber(let number)) = submission.action else { return nil }
            return number
        }
        #expect(read2 == [15, 15, 15, 15, 15, 0])
        // And a number with a fraction is no episode number
        #expect(try Self.refusal(#"{"command":"episode.renumber","episode":"S/1","number":1.5}"#).reason
            == .wrongType("number", expected: "a whole number"))
    }

    // MARK: settings

    @Test("an unknown key in settings is refused, and named", arguments: [
        (#"{"command":"thumbnail.settings","episode":"Show/1","settings":{"fontSize":40,"fontsize":40}}"#, "settings.fontsize"),
        (##"{"command":"podcast.defaults","podcast":"Show","settings":{"outlineColour":"#000000"}}"##, "settings.outlineColour"),
    ])
    func unknownSetting(line: String, key: String) throws {
        let error = try Self.refusal(line)
        #expect(error.reason == .unexpected([key], known: ThumbnailSettingsPatch.keys.sorted().map { "settings.\($0)" }))
        #expect(error.description.contains("\"\(key)\""), "\(error)")
    }

    @Test("a misspelt field or command is refused with what was probably meant, and the command's fields")
    func didYouMean() throws {
        let field = try Self.refusal(#"{"command":"episode.retitle","episode":"S/1","titel":"X"}"#)
        #expect(field.description == #"line 1: "titel" is not a field of this command. Did you mean "title"? Its fields: episode, title."#)
        let two = try Self.refusal(#"{"command":"episode.retitle","episod":"S/1","titel":"X"}"#)
        #expect(two.description == #"line 1: "episod", "titel" are not fields of this command. Did you mean "episode" for "episod"? Did you mean "title" for "titel"? Its fields: episode, title."#)
        let far = try Self.refusal(#"{"command":"episode.retitle","episode":"S/1","title":"X","colour":"red"}"#)
        #expect(far.description == #"line 1: "colour" is not a field of this command. Its fields: episode, title."#)
        let command = try Self.refusal(#"{"command":"episode.retitel","episode":"S/1","title":"X"}"#)
        #expect(command.description.hasPrefix(#"line 1: there is no command "episode.retitel". Did you mean "episode.retitle"? The commands are: "#))
    }

    @Test("null for a setting other than fontName is refused as the wrong type, not read as \"keep\"",
          arguments: ThumbnailSettingsPatch.keys.filter { $0 != "fontName" })
    func nullSetting(key: String) throws {
        let error = try Self.refusal(#"{"command":"thumbnail.settings","episode":"Show/1","settings":{"\#(key)":null}}"#)
        let expected = try #require(ThumbnailSettingsPatch.expectedValue(of: key))
        #expect(error.reason == .wrongType("settings.\(key)", expected: expected))
        #expect(error.description.contains("\"settings.\(key)\" should be"), "\(error)")
    }

    @Test("a setting of the wrong type is named, with what it takes", arguments: [
        ("fontSize", #""big""#, "a number"),
        ("canvasWidth", "1920.5", "a whole number"),
        ("fontColorHex", #""red""#, "#RRGGBB"),
        ("backgroundScaling", #""fill""#, "\"aspectFill\""),
        ("outlineEnabled", "1", "true or false"),
        ("fontName", "7", "a string"),
    ])
    func wrongSetting(key: String, value: String, expected: String) throws {
        let error = try Self.refusal(#"{"command":"podcast.defaults","podcast":"Show","settings":{"\#(key)":\#(value)}}"#)
        #expect(error.description.contains("\"settings.\(key)\" should be"), "\(error)")
        #expect(error.description.contains(expected), "\(error)")
    }

    @Test("null for fontName is the renderer's default font, and the settings not given are kept")
    func nullFontName() throws {
        let submission = try Self.submission(#"{"command":"thumbnail.settings","episode":"Show/1","settings":{"fontName":null}}"#)
        guard case .patchThumbnailSettings(_, let patch) = submission.action else {
            Issue.record("read as \(submission.name)")
            return
        }
        #expect(patch.fontName == .some(nil))
        #expect(patch.fontSize == nil)
    }

    // MARK: transcript.import

    @Test("transcript.import with both file and text asks for exactly one")
    func transcriptFileAndText() throws {
        let error = try Self.refusal(
            #"{"command":"transcript.import","episode":"Show/1","file":"t.txt","text":"00:00:01\nA\nHi.\n"}"#)
        #expect(error.description.contains(#"exactly one of "file" or "text""#), "\(error)")
    }

    @Test("transcript.import with neither file nor text says both are missing")
    func transcriptNeither() throws {
        let error = try Self.refusal(#"{"command":"transcript.import","episode":"Show/1"}"#)
        #expect(error.description.contains(#""file" or "text" is missing"#), "\(error)")
    }

    @Test("transcript.import names the field of the wrong type", arguments: [
        (#""file":7"#, "file", "text"),
        (#""file":null"#, "file", "text"),
        (#""text":7"#, "text", "file"),
        (#""text":null"#, "text", "file"),
    ])
    func transcriptWrongType(field: String, key: String, other: String) throws {
        let error = try Self.refusal(#"{"command":"transcript.import","episode":"Show/1",\#(field)}"#)
        #expect(error.reason == .wrongType(key, expected: "a string"))
        #expect(error.description.contains("\"\(key)\" should be"), "\(error)")
        #expect(!error.description.contains("\"\(other)\""), "\(error)")
    }

    // MARK: Fields that clear with null

    @Test("a field that clears with null is required, so that a forgotten one clears nothing", arguments: [
        (#"{"command":"podcast.describe","podcast":"Show""#, "description"),
        (#"{"command":"episode.describe","episode":"Show/1""#, "description"),
        (#"{"command":"episode.publish-date","episode":"Show/1""#, "publishDate"),
        (#"{"command":"thumbnail.text","episode":"Show/1""#, "text"),
    ])
    func clearingFieldIsRequired(start: String, key: String) throws {
        let error = try Self.refusal(start + "}")
        #expect(error.reason == .missing(key))
        #expect(error.description.contains("\"\(key)\" is missing"), "\(error)")

        let cleared = try Self.submission(start + #","\#(key)":null}"#)
        switch cleared.action {
        case .podcast(_, .describe(nil)), .episode(_, .describe(nil)), .episode(_, .setPublishDate(nil)),
             .episode(_, .changeThumbnailText(.episodeNumber)), .podcast(_, .changeDefaultThumbnailText(.episodeNumber)):
            break
        default:
            Issue.record("null should clear \(key): \(cleared.action)")
        }
    }

    // MARK: Images

    @Test("an image command names the file that is not an image", arguments: [
        "podcast.artwork\",\"podcast\":\"Show", "podcast.overlay\",\"podcast\":\"Show",
        "thumbnail.background\",\"episode\":\"Show/1", "thumbnail.overlay\",\"episode\":\"Show/1",
    ])
    func notAnImage(start: String) throws {
        let error = try Self.refusal(#"{"command":"\#(start)","file":"images/notes.png"}"#)
        #expect(error.description.contains("cannot read images/notes.png"), "\(error)")
        #expect(error.description.contains("not a PNG or JPEG"), "\(error)")
    }
}
