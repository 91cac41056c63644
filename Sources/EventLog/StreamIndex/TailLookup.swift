import Foundation

/// Where each stream's entries are in a tail of the stream index: entries in position order, not by
/// stream, so that finding a stream's means a pass over all of them. A command reads a few streams and
/// passes over them; a catch-up of thousands of commits reads thousands of streams, and after
/// ``passesBeforeMap`` passes the tail is mapped by stream once, then kept mapped as it grows, so that
/// the catch-up's cost follows its events, not their square.
final class TailLookup: @unchecked Sendable {
    /// Passes over the tail before it is mapped: a mapping costs a few passes, and most commands make
    /// fewer.
    static let passesBeforeMap = 16

    private let lock = NSLock()
    private var passes = 0
    /// Each stream hash's indexes among the first `mapped` entries; nil until the tail is mapped.
    private var byStream: [UInt64: [Int]]?
    private var mapped = 0

    /// The indexes, in order, of the entries among the tail's first `count` whose stream hash is `hash`;
    /// `hashAt` reads an entry's. The tail only grows while this lookup is kept: its owner makes a new
    /// one when the tail is replaced.
    func indexes(of hash: UInt64, count: Int, hashAt: (Int) -> UInt64) -> [Int] {
        lock.withLock {
            if byStream == nil {
                passes += 1
                guard passes > Self.passesBeforeMap else { return (0..<count).filter { hashAt($0) == hash } }
                byStream = [:]
            }
            while mapped < count {
                byStream![hashAt(mapped), default: []].append(mapped)
                mapped += 1
            }
            return (byStream![hash] ?? []).filter { $0 < count }
        }
    }
}
