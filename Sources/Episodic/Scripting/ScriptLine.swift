import CoreValues
import Foundation
import PodcastDomain

/// One line of a script: a JSON object whose `command` says what the other fields mean.
struct ScriptLine {
    typealias Reason = ScriptError.Reason

    private let fields: [String: JSONValue]

    /// Each command's fields: required, then optional. Unknown fields are refused, so that a typo
    /// never passes unnoticed. A field that clears with null (a description, a publish date, a
    /// thumbnail's text) is still required, so that a forgotten field never clears anything.
    static let shapes: [String: (required: [String], optional: [String])] = [
        "podcast.create": (["name"], ["description", "id"]),
        "podcast.rename": (["podcast", "name"], []),
        "podcast.describe": (["podcast", "description"], []),
        "podcast.artwork": (["podcast", "file"], []),
        "podcast.artwork.clear": (["podcast"], []),
        "podcast.overlay": (["podcast", "file"], []),
        "podcast.overlay.clear": (["podcast"], []),
        "podcast.background": (["podcast", "file"], []),
        "podcast.background.clear": (["podcast"], []),
        "podcast.defaults": (["podcast", "settings"], []),
        "podcast.text": (["podcast", "text"], []),
        "podcast.text.from-title": (["podcast"], []),
        "podcast.delete": (["podcast"], []),
        "episode.create": (["podcast", "title"], ["number", "publishDate", "description", "id"]),
        "episode.retitle": (["episode", "title"], []),
        "episode.renumber": (["episode", "number"], []),
        "episode.describe": (["episode", "description"], []),
        "episode.publish-date": (["episode", "publishDate"], []),
        "episode.delete": (["episode"], []),
        "transcript.import": (["episode"], ["file", "text", "strict"]),
        "transcript.clear": (["episode"], []),
        "transcript.convert": (["episode"], ["strict"]),
        "thumbnail.background": (["episode", "file"], []),
        "thumbnail.overlay": (["episode", "file"], []),
        "thumbnail.overlay.clear": (["episode"], []),
        "thumbnail.settings": (["episode", "settings"], []),
        "thumbnail.text": (["episode", "text"], []),
        "thumbnail.text.from-title": (["episode"], []),
        "thumbnail.render": (["episode"], []),
        "font.import": (["file"], ["name"]),
        "font.remove": (["name"], ["force"]),
    ]

    static var commands: [String] { shapes.keys.sorted() }

    /// Reads `line`, a UTF-8 byte order mark before it allowed (an editor may write one at the start
    /// of a file).
    init(_ line: Substring.UTF8View) throws(Reason) {
        let bytes = line.starts(with: Self.byteOrderMark) ? line.dropFirst(Self.byteOrderMark.count) : line
        func parse(_ buffer: UnsafeRawBufferPointer) -> Result<JSONValue, JSONValue.Failure> {
            Result { () throws(JSONValue.Failure) in try JSONValue.parse(buffer) }
        }
        let parsed = bytes.withContiguousStorageIfAvailable { parse(UnsafeRawBufferPointer($0)) } ?? Array(bytes).withUnsafeBytes(parse)
        switch parsed {
        case .success(.object(let fields)): self.fields = fields
        case .failure(.repeatedKey(let key)): throw .repeated(key)
        case .success, .failure(.malformed): throw .notJSON
        }
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    func submission(now: Timestamp, readFile: Script.ReadFile) throws(Reason) -> Submission {
        let name = try string("command")
        guard let shape = Self.shapes[name] else { throw .unknownCommand(name) }
        // Unknown fields first: a misspelt field would otherwise be reported as a missing one.
        let unexpected = fields.keys.filter { $0 != "command" && !shape.required.contains($0) && !shape.optional.contains($0) }
        guard unexpected.isEmpty else { throw .unexpected(unexpected.sorted(), known: shape.required + shape.optional) }
        for key in shape.required where fields[key] == nil { throw .missing(key) }

        switch name {
        case "podcast.create":
            let id = try optionalID("id") ?? PodcastID(UUID())
            return Submission(.podcast(.id(id), .create(id: id, name: try string("name"), description: try optionalString("description"), at: now)))
        case "podcast.rename": return Submission(.podcast(try podcast(), .rename(try string("name"))))
        case "podcast.describe": return Submission(.podcast(try podcast(), .describe(try optionalString("description"))))
        case "podcast.artwork": return try fileSubmission(readFile) { try .setArtwork($0, of: podcast()) }
        case "podcast.artwork.clear": return Submission(.podcast(try podcast(), .clearArtwork))
        case "podcast.overlay": return try fileSubmission(readFile) { try .setDefaultOverlay($0, of: podcast()) }
        case "podcast.overlay.clear": return Submission(.podcast(try podcast(), .clearDefaultOverlay))
        case "podcast.background": return try fileSubmission(readFile) { try .setDefaultBackground($0, of: podcast()) }
        case "podcast.background.clear": return Submission(.podcast(try podcast(), .clearDefaultBackground))
        case "podcast.defaults": return Submission(.patchThumbnailDefaults(try podcast(), try settings()))
        case "podcast.text": return Submission(.podcast(try podcast(), .changeDefaultThumbnailText(try customText())))
        case "podcast.text.from-title": return Submission(.podcast(try podcast(), .changeDefaultThumbnailText(.title)))
        case "podcast.delete": return Submission(.podcast(try podcast(), .delete))
        case "episode.create":
            let id = try optionalID("id") ?? EpisodeID(UUID())
            return Submission(.createEpisode(in: try podcast(), .create(
                id: id, title: try string("title"), number: try optionalInt("number"),
                description: try optionalString("description"), publishDate: try optionalTime("publishDate"), at: now)))
        case "episode.retitle": return Submission(.episode(try episode(), .retitle(try string("title"))))
        case "episode.renumber": return Submission(.episode(try episode(), .renumber(try int("number"))))
        case "episode.describe": return Submission(.episode(try episode(), .describe(try optionalString("description"))))
        case "episode.publish-date": return Submission(.episode(try episode(), .setPublishDate(try optionalTime("publishDate"))))
        case "episode.delete": return Submission(.episode(try episode(), .delete))
        case "transcript.import":
            return .importTranscript(try transcript(readFile), into: try episode(), strict: try optionalBool("strict") ?? false)
        case "transcript.clear": return Submission(.episode(try episode(), .clearTranscript))
        case "transcript.convert": return Submission(.convertTranscript(try episode(), strict: try optionalBool("strict") ?? false))
        case "thumbnail.background": return try fileSubmission(readFile) { try .setBackground($0, of: episode()) }
        case "thumbnail.overlay": return try fileSubmission(readFile) { try .setOverlay($0, of: episode()) }
        case "thumbnail.overlay.clear": return Submission(.episode(try episode(), .clearOverlay))
        case "thumbnail.settings": return Submission(.patchThumbnailSettings(try episode(), try settings()))
        case "thumbnail.text": return Submission(.episode(try episode(), .changeThumbnailText(try customText())))
        case "thumbnail.text.from-title": return Submission(.episode(try episode(), .changeThumbnailText(.title)))
        case "thumbnail.render": return Submission(.renderThumbnail(try episode()))
        case "font.import":
            let path = try string("file")
            let name = try optionalString("name") ?? Submission.fontName(forFile: path)
            return try fileSubmission(readFile) { try .importFont($0, name: name) }
        case "font.remove": return .removeFont(named: try string("name"), force: try optionalBool("force") ?? false)
        default: preconditionFailure("\(name) has a shape but no reading")
        }
    }

    // MARK: Fields

    private func podcast() throws(Reason) -> PodcastReference { .text(try string("podcast")) }
    private func episode() throws(Reason) -> EpisodeReference { .text(try string("episode")) }

    /// The `text` field of a thumbnail text command: words of one's own, or (null) the episode's number.
    private func customText() throws(Reason) -> ThumbnailText { ThumbnailText(custom: try optionalString("text")) }

    private func string(_ key: String) throws(Reason) -> String {
        guard let value = fields[key] else { throw .missing(key) }
        guard case .string(let text) = value else { throw .wrongType(key, expected: "a string") }
        return text
    }

    private func optionalString(_ key: String) throws(Reason) -> String? {
        guard let value = fields[key], value != .null else { return nil }
        return try string(key)
    }

    private func int(_ key: String) throws(Reason) -> Int {
        guard case .number(let number)? = fields[key], let value = Int(exactly: number) else {
            throw .wrongType(key, expected: "a whole number")
        }
        return value
    }

    private func optionalBool(_ key: String) throws(Reason) -> Bool? {
        guard let value = fields[key] else { return nil }
        guard case .bool(let flag) = value else { throw .wrongType(key, expected: "true or false") }
        return flag
    }

    private func optionalInt(_ key: String) throws(Reason) -> Int? {
        guard let value = fields[key], value != .null else { return nil }
        return try int(key)
    }

    private func optionalTime(_ key: String) throws(Reason) -> Timestamp? {
        guard let text = try optionalString(key) else { return nil }
        guard let time = Timestamp(text: text) else {
            throw .wrongType(key, expected: "a UTC time of the form 2026-11-21T18:30:00.000Z")
        }
        return time
    }

    private func optionalID<Kind>(_ key: String) throws(Reason) -> Identifier<Kind>? {
        guard let text = try optionalString(key) else { return nil }
        guard let id = Identifier<Kind>(text) else { throw .wrongType(key, expected: "a UUID") }
        return id
    }

    /// The patch `settings` gives. Keys are checked here, as the decoder would skip an unknown one and
    /// a misspelt setting would then change nothing without a word.
    private func settings() throws(Reason) -> ThumbnailSettingsPatch {
        guard case .object(let given)? = fields["settings"], let json = try? JSONEncoder().encode(fields["settings"]) else {
            throw .wrongType("settings", expected: "an object of thumbnail settings")
        }
        let unknown = given.keys.filter { !ThumbnailSettingsPatch.keys.contains($0) }
        guard unknown.isEmpty else {
            throw .unexpected(unknown.sorted().map { "settings.\($0)" }, known: ThumbnailSettingsPatch.keys.sorted().map { "settings.\($0)" })
        }
        do {
            return try JSONDecoder().decode(ThumbnailSettingsPatch.self, from: json)
        } catch {
            throw Self.refusal(of: error)
        }
    }

    /// The decoder's error as a refusal that names the setting and what it takes: the decoder's own
    /// words name Swift types, which a script's author need not know.
    private static func refusal(of error: any Error) -> Reason {
        let path: [any CodingKey]
        switch error as? DecodingError {
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?:
            path = context.codingPath
        default: path = []
        }
        guard let key = path.first?.stringValue, let expected = ThumbnailSettingsPatch.expectedValue(of: key) else {
            return .wrongType("settings", expected: "an object of thumbnail settings with values in their types (\(error))")
        }
        return .wrongType("settings.\(key)", expected: expected)
    }

    /// The submission `make` builds from the file (an image, a font) the line names.
    private func fileSubmission(
        _ readFile: Script.ReadFile, _ make: ([UInt8]) throws -> Submission
    ) throws(Reason) -> Submission {
        let path = try string("file")
        let bytes: [UInt8]
        do {
            bytes = try readFile(path, nil)
        } catch {
            throw .file(path, "\(error)", missing: ErrorKind(of: error) == .missing)
        }
        do {
            return try make(bytes)
        } catch let reason as Reason {
            throw reason
        } catch {
            throw .file(path, "\(error)", missing: ErrorKind(of: error) == .missing)
        }
    }

    /// The transcript, from `file` or from `text`: exactly one of them, so that it is never unclear
    /// which one counts. A refusal names the field it is about, as either may be the one mistaken.
    private func transcript(_ readFile: Script.ReadFile) throws(Reason) -> [UInt8] {
        switch (fields["file"], fields["text"]) {
        case (nil, nil):
            throw .missing(#"file" or "text"#)
        case (_?, _?):
            throw .wrongType(#"file" and "text"#, expected: #"one or the other: give exactly one of "file" or "text""#)
        case (_?, nil):
            let path = try string("file")
            do {
                return try readFile(path, DomainError.transcriptLimit)
            } catch {
                throw .file(path, "\(error)", missing: ErrorKind(of: error) == .missing)
            }
        case (nil, _?):
            return Array(try string("text").utf8)
        }
    }
}
