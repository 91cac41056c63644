import Episodic
import Foundation

/// Counts as a sentence says them.
enum Amount {
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    static func events(_ n: UInt64) -> String { "\(n) event\(n == 1 ? "" : "s")" }

    /// A size with its exact byte count: `6.7 KB (6656 bytes)`.
    static func bytes(_ n: UInt64) -> String {
        n < 1_000 ? size(n) : size(n) + " (\(n) bytes)"
    }

    /// A size as people read it (``ByteSize``): `6.7 KB`, `512 B`.
    static func size(_ n: UInt64) -> String { ByteSize.text(n) }
}
