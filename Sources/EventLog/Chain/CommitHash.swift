import Crypto
import Foundation

/// The SHA-256 of one commit's lines, each with its newline, exactly as appended.
///
/// Since log format 2, the first line of every commit carries the hash of the commit before it as
/// `"prev"`; the log's first commit carries the library's ``genesis(of:)`` hash instead. A hash covers
/// its own `prev`, so each commit's hash pins every commit before it: a frame edited, removed,
/// reordered or copied from another library breaks the chain at the first commit after it.
/// Compaction copies lines verbatim but for the `prev`s a frame gives (format 3, ``CommitWalker``),
/// which hashing puts back, so it keeps the chain.
struct CommitHash: Equatable, CustomStringConvertible {
    static let hexCount = 64

    let digest: [UInt8]

    init(digest: some Sequence<UInt8>) { self.digest = Array(digest) }

    /// Reads 64 lowercase hex digits; nil for anything else.
    init?(hex: UnsafeRawBufferPointer) {
        guard hex.count == Self.hexCount else { return nil }
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        var high: UInt8 = 0
        for (i, byte) in hex.enumerated() {
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            if i % 2 == 0 { high = nibble } else { digest.append(high << 4 | nibble) }
        }
        self.digest = digest
    }

    var hex: String { String(decoding: hexDigits, as: UTF8.self) }

    /// The 64 lowercase hex digits as bytes, as a line holds them.
    var hexDigits: [UInt8] {
        let digits: StaticString = "0123456789abcdef"
        var text: [UInt8] = []
        text.reserveCapacity(Self.hexCount)
        for byte in digest {
            text.append(digits.utf8Start[Int(byte >> 4)])
            text.append(digits.utf8Start[Int(byte & 0xF)])
        }
        return text
    }
    var description: String { hex }

    /// Where a library's chain starts: the hash of `episodic-chain:` followed by its id in lowercase.
    static func genesis(of id: LibraryID) -> CommitHash {
        CommitHash(digest: SHA256.hash(data: Array(("episodic-chain:" + id.uuid.uuidString.lowercased()).utf8)))
    }

    /// The hash of a commit whose lines, newlines included, are `content`.
    static func of(_ content: UnsafeRawBufferPointer) -> CommitHash {
        CommitHash(digest: SHA256.hash(data: content))
    }
}
