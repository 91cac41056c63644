import CoreValues
import Foundation
import PodcastDomain

/// Commands written as JSON Lines, one object per line, as `episodic submit` reads them. Each line's
/// shape is given by `schemas/commands/<command>.schema.json`.
///
/// A script is read whole before anything runs: a line that cannot be read stops it with nothing
/// written.
public enum Script {
    /// The submissions of `text`. `readFile` reads a file a line names by path (a transcript, an image,
    /// a font), refusing one of more bytes than the limit given with it, if any; `now` is the time
    /// creates record.
    public static func parse(_ text: String, now: Timestamp, readFile: ReadFile) throws -> [Submission] {
        try lines(text, now: now, readFile: readFile).map(\.submission)
    }

    /// The submissions of `text` with the line each was written on (1-based; blank lines count, as an
    /// editor counts them), so that a refusal can name the line as a parse error does.
    public static func lines(_ text: String, now: Timestamp, readFile: ReadFile) throws
        -> [(line: Int, submission: Submission)]
    {
        var submissions: [(line: Int, submission: Submission)] = []
        // Split and trimmed as bytes: a script of transcripts is megabytes, and walking it by Character
        // cost more than deciding its commands.
        for (index, line) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let trimmed = trimmed(line)
            guard !trimmed.isEmpty else { continue }
            do {
                submissions.append((index + 1, try ScriptLine(trimmed).submission(now: now, readFile: readFile)))
            } catch {
                throw ScriptError(line: index + 1, reason: error)
            }
        }
        return submissions
    }

    /// Every command a script may hold, by name, with its fields.
    public static var commands: [ScriptCommand] {
        ScriptLine.commands.map { name in
            let shape = ScriptLine.shapes[name]!
            return ScriptCommand(name: name, required: shape.required, optional: shape.optional)
        }
    }

    /// Reads the file at a path, refusing it when it holds more bytes than the limit, if one is given.
    public typealias ReadFile = (_ path: String, _ limit: Int?) throws -> [UInt8]

    /// `line` without the white space (Unicode's, line ends included) at either end.
    private static func trimmed(_ line: Substring.UTF8View) -> Substring.UTF8View {
        // Almost every line starts and ends with ASCII that is not space: `{` and `}`.
        func printable(_ byte: UInt8?) -> Bool { byte.map { $0 > 0x20 && $0 < 0x80 } ?? false }
        if printable(line.first) && printable(line.last) { return line }
        let scalars = Substring(line).unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return Substring("").utf8 }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return Substring(scalars[start...end]).utf8
    }
}

/// A command a script may hold: its name (`episode.create`) and its fields.
public struct ScriptCommand: Sendable, Equatable, Encodable {
    public var name: String
    public var required: [String]
    public var optional: [String]
}

/// A script line that cannot be run, and why.
public struct ScriptError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var reason: Reason

    public enum Reason: Error, Equatable, Sendable, CustomStringConvertible {
        case notJSON
        case unknownCommand(String)
        case missing(String)
        /// Keys the command does not have, and the ones it has.
        case unexpected([String], known: [String])
        case wrongType(String, expected: String)
        /// An object of the line names this key twice.
        case repeated(String)
        /// A file the line names cannot be read; `missing` when there is none at the path.
        case file(String, String, missing: Bool)

        public var description: String {
            switch self {
            case .notJSON: "it is not a JSON object. Write one command per line, e.g. {\"command\":\"podcast.create\",\"name\":\"My Show\"}."
            case .unknownCommand(let name):
                "there is no command \"\(name)\"."
                    + (Suggestion.closest(to: name, among: ScriptLine.commands).map { " Did you mean \"\($0)\"?" } ?? "")
                    + " The commands are: \(ScriptLine.commands.joined(separator: ", "))."
            case .missing(let key): "\"\(key)\" is missing. Add it."
            case let .unexpected(keys, known):
                "\(keys.map { "\"\($0)\"" }.joined(separator: ", ")) \(keys.count == 1 ? "is not a field" : "are not fields") of this command."
                    + keys.compactMap { key in
                        Suggestion.closest(to: key, among: known).map { " Did you mean \"\($0)\"" + (keys.count == 1 ? "?" : " for \"\(key)\"?") }
                    }.joined()
                    + " Its fields: \(known.joined(separator: ", "))."
            case let .wrongType(key, expected): "\"\(key)\" should be \(expected)."
            case .repeated(let key): "\"\(key)\" is given twice. Keep one."
            case let .file(path, reason, _): reason.contains(path) ? reason : "cannot read \(path): \(reason)"
            }
        }
    }

    public var description: String { "line \(line): \(reason)" }
}

extension ScriptError: ClassifiedError {
    public var kind: ErrorKind { reason.kind }
}

extension ScriptError.Reason: ClassifiedError {
    /// Missing, for a file that is not there (66, as on the command line); refused otherwise.
    public var kind: ErrorKind {
        if case .file(_, _, missing: true) = self { return .missing }
        return .refused
    }
}
