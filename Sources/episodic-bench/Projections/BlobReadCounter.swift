import EventLog
import Foundation
import Projections

/// The blobs a projector reads, counted as it reads them: the search figure divides what the search
/// projector really read by the time it took, rather than what a model of its rule says it would read.
final class BlobReadCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var refs: [BlobRef] = []
    private var bytes = 0

    /// A reader of `store` that counts each read; projectors may call it from any thread.
    func reader(of store: BlobStore) -> BlobReader {
        BlobReader { [self] ref in
            let content = try store.get(ref)
            lock.withLock {
                refs.append(ref)
                bytes += content.count
            }
            return content
        }
    }

    /// How many blobs were read (a blob read twice counts twice), and their bytes of content.
    var tally: (reads: Int, bytes: Int) { lock.withLock { (refs.count, bytes) } }

    /// The blobs read, in the order they were read.
    var read: [BlobRef] { lock.withLock { refs } }
}
