import CoreValues
import Foundation

/// A blob's content in a temporary file of `blobs/`, synced, waiting for ``BlobStore/place(_:)`` to give
/// it its name. Removed if no commit names it: until then no event can refer to it.
struct StagedBlob: Sendable {
    let ref: BlobRef
    let temporaryName: String
}

/// Stores blobs ahead of the commits that will name them, on a thread of its own, in the order given.
///
/// Creating, writing and syncing a blob's file is the slow half of storing it (a new inode costs the
/// most); done here, it runs on another core while the writer decides the commands before. The writer
/// then only renames each file into place, when the commit naming it is accepted, so a refused
/// command leaves nothing under a blob's name, and its staged file is removed.
final class BlobStaging: @unchecked Sendable {
    private let store: BlobStore
    private let condition = NSCondition()
    /// Staged files not yet taken, by sha256.
    private var staged: [String: StagedBlob] = [:]
    /// Contents queued or being staged, by sha256.
    private var waiting: Set<String> = []
    private var stopping = false
    private var finished = false

    init(store: BlobStore, contents: [[UInt8]]) {
        self.store = store
        let queued = contents.map { (bytes: $0, ref: BlobStore.reference(for: $0)) }
        waiting = Set(queued.map(\.ref.sha256))
        DetachedThread.start { [self] in stage(queued) }
    }

    private func stage(_ queued: [(bytes: [UInt8], ref: BlobRef)]) {
        for (bytes, ref) in queued {
            if condition.withLock({ stopping }) { break }
            // A failure is left to the writer, whose own put meets it and reports it.
            let result = try? store.stage(bytes, as: ref)
            condition.withLock {
                if let result {
                    if staged[ref.sha256] == nil { staged[ref.sha256] = result } else { store.discard(result) }
                }
                waiting.remove(ref.sha256)
                condition.broadcast()
            }
        }
        condition.withLock {
            waiting = []
            finished = true
            condition.broadcast()
        }
    }

    /// The staged file of `ref`, once staged (waiting for it if it is queued); nil when it was never
    /// queued, or could not be staged.
    func take(_ ref: BlobRef) -> StagedBlob? {
        condition.withLock {
            while waiting.contains(ref.sha256) { condition.wait() }
            return staged.removeValue(forKey: ref.sha256)
        }
    }

    /// Stops staging, waits for the thread, and removes the staged files nobody took.
    func finish() {
        let left: [StagedBlob] = condition.withLock {
            stopping = true
            while !finished { condition.wait() }
            defer { staged = [:] }
            return Array(staged.values)
        }
        for blob in left { store.discard(blob) }
    }
}
