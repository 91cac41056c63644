import CoreValues

/// Writes events as the log's JSON lines, envelope first and `data` last (see schemas/log-format.md).
struct EnvelopeEncoder {
    /// The members every event of one commit shares, encoded once: `"time":…,"actor":…,"command":…[,"undoes":…]`.
    private var shared: [UInt8] = []

    init(commit: Commit) {
        shared.reserveCapacity(128)
        shared.append(contentsOf: Array(#""time":""#.utf8))
        Timestamp.append(milliseconds: commit.timestamp.rawValue, to: &shared)
        shared.append(contentsOf: Array(#"","actor":"#.utf8))
        JSONText.appendString(commit.actor, to: &shared)
        shared.append(contentsOf: Array(#","command":""#.utf8))
        shared.append(contentsOf: Array(commit.commandID.description.utf8))
        shared.append(UInt8(ascii: "\""))
        if let undoes = commit.undoes {
            shared.append(contentsOf: Array(#","undoes":""#.utf8))
            shared.append(contentsOf: Array(undoes.description.utf8))
            shared.append(UInt8(ascii: "\""))
        }
    }

    /// Appends one event's line, newline included. The first line of a commit carries `previous`, the
    /// hash of the commit before it (see ``CommitHash``); the others carry none.
    func appendLine(
        for event: ProposedEvent, position: LogPosition, version: Int, previous: CommitHash?, to out: inout [UInt8]
    ) {
        out.append(contentsOf: #"{"position":"#.utf8)
        appendDecimal(position.rawValue, to: &out)
        out.append(contentsOf: #","stream":""#.utf8)
        out.append(contentsOf: event.stream.rawValue.utf8)
        out.append(contentsOf: #"","version":"#.utf8)
        appendDecimal(UInt64(version), to: &out)
        out.append(contentsOf: #","type":""#.utf8)
        out.append(contentsOf: event.type.utf8)
        out.append(contentsOf: #"","schema":"#.utf8)
        appendDecimal(UInt64(event.schemaVersion), to: &out)
        out.append(UInt8(ascii: ","))
        out.append(contentsOf: shared)
        if let previous {
            out.append(contentsOf: #","prev":""#.utf8)
            out.append(contentsOf: previous.hex.utf8)
            out.append(UInt8(ascii: "\""))
        }
        if !event.blobs.isEmpty {
            out.append(contentsOf: #","blobs":["#.utf8)
            for (i, blob) in event.blobs.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: #"{"sha256":""#.utf8)
                out.append(contentsOf: blob.sha256.utf8)
                out.append(contentsOf: #"","bytes":"#.utf8)
                appendDecimal(UInt64(blob.byteCount), to: &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(contentsOf: #","data":"#.utf8)
        out.append(contentsOf: event.payload)
        out.append(UInt8(ascii: "}"))
        out.append(0x0A)
    }

    private func appendDecimal(_ value: UInt64, to out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)  // 40 bytes of scratch
        withUnsafeMutableBytes(of: &digits) { scratch in
            var rest = value
            var i = scratch.count
            while rest > 0 {
                i -= 1
                scratch[i] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            out.append(contentsOf: scratch[i...])
        }
    }
}
