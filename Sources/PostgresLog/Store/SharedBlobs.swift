import CoreValues
import EventLog
import Foundation

/// A shared library's blobs as this machine reads them: from the folder's blob store, else fetched
/// from the server by hash, checked against it, and kept in the folder. Only what is read is fetched,
/// so a clone does not download every image of the library.
///
/// Safe from any thread (the search projection reads transcripts from several): fetches take turns
/// on one connection of their own.
public final class SharedBlobs: @unchecked Sendable {
    public let local: BlobStore
    let endpoint: PostgresEndpoint
    let schema: String
    let lockWait: Duration
    private let lock = NSLock()
    private var session: PostgresSession?

    public init(local: BlobStore, endpoint: PostgresEndpoint, schema: String, lockWait: Duration = .seconds(10)) {
        (self.local, self.endpoint, self.schema, self.lockWait) = (local, endpoint, schema, lockWait)
    }

    /// The content `ref` names. A blob neither here nor on the server is
    /// ``SharedLogError/blobMissing(sha256:)``; one whose bytes do not match its hash is
    /// ``EventLogError/blobDamaged(_:reason:)``, and is not kept.
    public func blob(_ ref: BlobRef) throws -> [UInt8] {
        do {
            return try local.get(ref)
        } catch .blobMissing {
            return try lock.withLock {
                if session?.isBroken != false { session = try PostgresSession(endpoint, lockWait: lockWait) }
                guard let stored = try SharedLog(session: session!, schema: schema).download(ref) else {
                    throw SharedLogError.blobMissing(sha256: ref.sha256)
                }
                return try local.put(stored: stored, as: ref)
            }
        }
    }
}
