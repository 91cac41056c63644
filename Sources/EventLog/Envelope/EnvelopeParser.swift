import CoreValues
import Foundation

/// Reads one JSON line of the log into an ``EventEnvelope``.
///
/// The fast path relies on a rule of the format: `data` is the last member of the line, so the payload is
/// everything from its first byte to the line's closing brace and is never scanned. `strict` parsing also
/// checks that the payload is well-formed JSON; `verify` uses it.
enum EnvelopeParser {
    enum Failure: Error, Equatable {
        case malformed(String)
    }

    /// The position of a line as the writer lays it out, `{"position":N,…`, read without parsing the
    /// rest; nil for a line laid out otherwise, which only ``parse(_:strict:)`` can read.
    static func leadingPosition(_ line: UnsafeRawBufferPointer) -> LogPosition? {
        let prefix: StaticString = #"{"position":"#
        let length = prefix.utf8CodeUnitCount
        guard line.count > length, memcmp(line.baseAddress!, prefix.utf8Start, length) == 0 else { return nil }
        var text = JSONText(line, at: length)
        guard let position = text.integer(), position > 0, !text.atEnd, text.current == UInt8(ascii: ",") else { return nil }
        return LogPosition(UInt64(position))
    }

    /// The position, stream and type of a line. A line laid out as the writer lays it out,
    /// `{"position":N,"stream":"…","version":N,"type":"…",…`, is read no further than its type; any
    /// other is parsed whole.
    static func head(_ line: UnsafeRawBufferPointer) throws(Failure) -> EventHead {
        if let position = leadingPosition(line) {
            var text = JSONText(line, at: #"{"position":"#.utf8.count)
            if text.integer() != nil, text.consume(UInt8(ascii: ",")), member(&text, is: "stream"), let (stream, _) = text.string(),
                text.consume(UInt8(ascii: ",")), member(&text, is: "version"), text.integer() != nil,
                text.consume(UInt8(ascii: ",")), member(&text, is: "type"), let (type, _) = text.string()
            {
                return EventHead(
                    position: position, streamBytes: UnsafeRawBufferPointer(rebasing: line[stream]),
                    typeBytes: UnsafeRawBufferPointer(rebasing: line[type]))
            }
        }
        return EventHead(try parse(line))
    }

    /// Consumes `"name":` when it comes next.
    private static func member(_ text: inout JSONText, is name: StaticString) -> Bool {
        let start = text.index
        guard let (key, _) = text.string(), key.count == name.utf8CodeUnitCount,
            memcmp(text.bytes.baseAddress! + key.lowerBound, name.utf8Start, key.count) == 0, text.consume(UInt8(ascii: ":"))
        else {
            text.index = start
            return false
        }
        return true
    }

    static func parse(_ line: UnsafeRawBufferPointer, strict: Bool = false) throws(Failure) -> EventEnvelope {
        var text = JSONText(line)
        guard text.consume(UInt8(ascii: "{")) else { throw .malformed("a line must be a JSON object") }
        var position: Int64?, version: Int64?, schema: Int64?
        var stream: Range<Int>?, type: Range<Int>?, time: Range<Int>?, actor: Range<Int>?, command: Range<Int>?
        var actorEscaped = false
        var undoes: Range<Int>?, previous: Range<Int>?, blobs: Range<Int>?, data: Range<Int>?

        while data == nil {
            guard let (key, _) = text.string(), text.consume(UInt8(ascii: ":")) else {
                throw .malformed("expected a member name")
            }
            text.skipWhitespace()
            switch name(UnsafeRawBufferPointer(rebasing: line[key])) {
            case .position: position = text.integer()
            case .version: version = text.integer()
            case .schema: schema = text.integer()
            case .stream: stream = text.string()?.range
            case .type: type = text.string()?.range
            case .time: time = text.string()?.range
            case .actor:
                let value = text.string()
                actor = value?.range
                actorEscaped = value?.escaped ?? false
            case .command: command = text.string()?.range
            case .undoes: undoes = text.string()?.range
            case .prev:
                guard let value = text.string() else { throw .malformed("prev is not a string") }
                previous = value.range
            case .blobs:
                let start = text.index
                guard text.skipValue() else { throw .malformed("blobs is not valid JSON") }
                blobs = start..<text.index
            case .data:
                let start = text.index
                if strict {
                    guard text.skipValue() else { throw .malformed("data is not valid JSON") }
                    guard text.consume(UInt8(ascii: "}")), { text.skipWhitespace(); return text.atEnd }() else {
                        throw .malformed("data must be the line's last member")
                    }
                    data = start..<(text.index - 1)
                } else {
                    guard line.count > start, line[line.count - 1] == UInt8(ascii: "}") else {
                        throw .malformed("a line must end with }")
                    }
                    data = start..<(line.count - 1)
                }
                continue
            case nil:
                guard text.skipValue() else { throw .malformed("a member's value is not valid JSON") }
            }
            guard text.consume(UInt8(ascii: ",")) else { throw .malformed("expected , before data") }
        }
        guard let position, position > 0 else { throw .malformed("position is missing or not a positive integer") }
        guard let version, version > 0 else { throw .malformed("version is missing or not a positive integer") }
        guard let schema, schema > 0 else { throw .malformed("schema is missing or not a positive integer") }
        guard let stream else { throw .malformed("stream is missing") }
        guard let type else { throw .malformed("type is missing") }
        guard let time else { throw .malformed("time is missing") }
        guard let actor else { throw .malformed("actor is missing") }
        guard let command else { throw .malformed("command is missing") }
        if strict {
            guard Timestamp.parse(UnsafeRawBufferPointer(rebasing: line[time])).flatMap(Timestamp.init(rawValue:)) != nil else {
                throw .malformed("time is not of the form 2026-01-31T12:00:00.000Z")
            }
            guard CommandID(String(decoding: UnsafeRawBufferPointer(rebasing: line[command]), as: UTF8.self)) != nil
            else { throw .malformed("command is not a UUID") }
            // Empty where compaction left it out (format 3): the hash of the commit before.
            if let previous, !previous.isEmpty, CommitHash(hex: UnsafeRawBufferPointer(rebasing: line[previous])) == nil {
                throw .malformed("prev is not 64 lowercase hex digits, nor empty")
            }
            if let blobs, blobRefs(in: UnsafeRawBufferPointer(rebasing: line[blobs])) == nil {
                throw .malformed("blobs must be a list of {\"sha256\", \"bytes\"}")
            }
        }
        return EventEnvelope(
            line: line, position: LogPosition(UInt64(position)), streamVersion: Int(version),
            schemaVersion: Int(schema), streamRange: stream, typeRange: type, timeRange: time,
            actorRange: actor, actorEscaped: actorEscaped, commandRange: command, undoesRange: undoes,
            previousRange: previous, blobsRange: blobs, dataRange: data!)
    }

    /// Parses `[{"sha256":"…","bytes":N},…]`.
    static func blobRefs(in bytes: UnsafeRawBufferPointer) -> [BlobRef]? {
        var text = JSONText(bytes)
        var refs: [BlobRef] = []
        guard text.consume(UInt8(ascii: "[")) else { return nil }
        if text.consume(UInt8(ascii: "]")) { return refs }
        repeat {
            guard text.consume(UInt8(ascii: "{")) else { return nil }
            var sha: String?, count: Int64?
            repeat {
                guard let (key, _) = text.string(), text.consume(UInt8(ascii: ":")) else { return nil }
                switch String(decoding: UnsafeRawBufferPointer(rebasing: bytes[key]), as: UTF8.self) {
                case "sha256":
                    guard let (value, _) = text.string() else { return nil }
                    sha = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[value]), as: UTF8.self)
                case "bytes": count = text.integer()
                default: guard text.skipValue() else { return nil }
                }
            } while text.consume(UInt8(ascii: ","))
            guard text.consume(UInt8(ascii: "}")), let sha, let count, let ref = BlobRef(sha256: sha, byteCount: Int(count))
            else { return nil }
            refs.append(ref)
        } while text.consume(UInt8(ascii: ","))
        return text.consume(UInt8(ascii: "]")) ? refs : nil
    }

    private enum Member { case position, stream, version, type, schema, time, actor, command, undoes, prev, blobs, data }

    @inline(__always)
    private static func name(_ key: UnsafeRawBufferPointer) -> Member? {
        guard let first = key.first else { return nil }
        func matches(_ word: StaticString) -> Bool {
            key.count == word.utf8CodeUnitCount
                && memcmp(key.baseAddress!, word.utf8Start, key.count) == 0
        }
        switch first {
        case UInt8(ascii: "p"): return matches("position") ? .position : matches("prev") ? .prev : nil
        case UInt8(ascii: "s"): return matches("stream") ? .stream : matches("schema") ? .schema : nil
        case UInt8(ascii: "v"): return matches("version") ? .version : nil
        case UInt8(ascii: "t"): return matches("type") ? .type : matches("time") ? .time : nil
        case UInt8(ascii: "a"): return matches("actor") ? .actor : nil
        case UInt8(ascii: "c"): return matches("command") ? .command : nil
        case UInt8(ascii: "u"): return matches("undoes") ? .undoes : nil
        case UInt8(ascii: "b"): return matches("blobs") ? .blobs : nil
        case UInt8(ascii: "d"): return matches("data") ? .data : nil
        default: return nil
        }
    }
}
