import CoreValues
import Crypto
import Foundation

/// Content-addressed storage for heavy content (transcripts, SRT output, images).
///
/// Each blob is one file, `blobs/<first 2 hex digits>/<other 62>`, holding its content as one LZ4 frame.
/// A file is written once and never changed, unless it turns out damaged when the same content is put
/// again: then it is replaced. Every read checks the content against its hash.
public struct BlobStore: Sendable {
    /// The `blobs` folder of a library.
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The blob store of the library at `library`, reached without opening its log.
    public init(library: String) {
        self.init(directory: LibraryLayout(unverifiedAt: library).blobDirectory)
    }

    /// The sha256 reference of `bytes`, without storing them.
    public static func reference(for bytes: some DataProtocol) -> BlobRef {
        BlobRef(sha256: SHA256.hash(data: bytes).lowercaseHex, byteCount: bytes.count)!
    }

    /// Stores `bytes` durably and returns their reference: ``stage(_:)``, then ``place(_:)``.
    ///
    /// The content goes to a temporary file `.incoming-<random>` in this folder, is fsynced, renamed to
    /// its place, and the shard folder is fsynced; the shard's own entry in `blobs/` is synced before the
    /// shard holds anything, even when an earlier process made it. When the blob's file is
    /// already there it is read and checked first: content that does not match its sha256 (damage) is
    /// replaced, atomically. Nothing is written through a symbolic link: a link in place of this folder
    /// or of a shard is refused, a link in place of a blob is replaced.
    @discardableResult
    public func put(_ bytes: [UInt8]) throws(EventLogError) -> BlobRef {
        try place(try stage(bytes, as: Self.reference(for: bytes)))
    }

    /// The slow half of ``put(_:)``, which needs no lock and names nothing yet: the content, compressed,
    /// in a new temporary file of this folder, synced. ``BlobStaging`` does it on a thread of its own,
    /// ahead of the commit that will name the blob.
    /// `ref` is `bytes`' reference, which the caller has already computed.
    func stage(_ bytes: [UInt8], as ref: BlobRef) throws(EventLogError) -> StagedBlob {
        let root = try Folder.inside(library, at: directory)
        let (temporary, file) = try root.createTemporary(prefix: Self.incomingPrefix)
        do {
            try file.write(LZ4Frame.compress(bytes, settings: .init(level: 0)), at: 0)
            try file.sync()
        } catch {
            try? root.remove(temporary)
            throw error
        }
        return StagedBlob(ref: ref, temporaryName: temporary)
    }

    /// The other half: the staged file renamed to the blob's name in its shard, and the shard synced;
    /// when the blob is already stored whole, the staged file is removed instead.
    @discardableResult
    func place(_ staged: StagedBlob) throws(EventLogError) -> BlobRef {
        var shards = BlobShards()
        try place(staged, syncingLater: &shards)
        try shards.sync()
        return staged.ref
    }

    /// ``place(_:)`` but for the shard's sync, which `shards` keeps for later: a writer storing many
    /// blobs syncs each shard once for all of them, before a commit naming any of them is appended.
    func place(_ staged: StagedBlob, syncingLater shards: inout BlobShards) throws(EventLogError) {
        let ref = staged.ref
        let name = String(ref.sha256.dropFirst(2))
        let shardName = String(ref.sha256.prefix(2))
        do throws(EventLogError) {
            let root: Folder
            if let known = shards.root { root = known } else { root = try Folder.inside(library, at: directory) }
            shards.root = root
            let shard: Folder
            if let known = shards[shardName] {
                shard = known
            } else {
                let (opened, created) = try root.subfolder(shardName, creating: true)
                // The shard's entry in blobs/ is synced before anything goes into the shard, whoever
                // created it (perhaps a put killed before it could): a shard that holds a file proves its
                // entry durable.
                if try created ? true : opened.isEmpty() { try root.sync() }
                shard = opened
                shards[shardName] = shard
            }
            if let existing = try? shard.open(name, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK), (try? Self.content(ofFile: existing.readAll(), as: ref)) != nil {
                // Already stored. A blob file gets its name only once its content is synced, but the process
                // that renamed it may have been killed before it synced the shard: it is synced again.
                discard(staged)
                return
            }
            try root.rename(staged.temporaryName, to: name, in: shard)
        } catch {
            discard(staged)
            throw error
        }
    }

    /// Removes a staged file no commit will name.
    func discard(_ staged: StagedBlob) {
        try? Folder.inside(library, at: directory).remove(staged.temporaryName)
    }

    /// The names of the temporary files of blobs being stored, in this folder.
    static let incomingPrefix = ".incoming-"

    /// Removes the temporary files of stores that were killed, never one a live process is still writing
    /// (see ``Folder/removeAbandoned(prefixes:)``). Returns how many it removed.
    @discardableResult
    func removeAbandonedIncoming() -> Int {
        guard let root = try? Folder.inside(library, at: directory) else { return 0 }
        return root.removeAbandoned(prefixes: [Self.incomingPrefix]).count
    }

    /// The library this store belongs to, which refusals name.
    private var library: String { FileSystem.folder(of: directory) }

    /// The content of `ref`, checked against its hash.
    public func get(_ ref: BlobRef) throws(EventLogError) -> [UInt8] {
        try Self.content(ofFile: fileBytes(ref), as: ref)
    }

    /// The bytes of `ref`'s file as stored (one LZ4 frame), checked against its hash: what a shared
    /// library's server keeps.
    public func stored(_ ref: BlobRef) throws(EventLogError) -> [UInt8] {
        let bytes = try fileBytes(ref)
        _ = try Self.content(ofFile: bytes, as: ref)
        return bytes
    }

    /// The bytes of `ref`'s file, unchecked; ``EventLogError/blobMissing(_:)`` when there is none. A pipe
    /// or a device in its place reads as nothing, which the check refuses, rather than blocking.
    private func fileBytes(_ ref: BlobRef) throws(EventLogError) -> [UInt8] {
        let file: File
        do {
            file = try File.openForReading(path(for: ref))
        } catch {
            if case .io(_, _, let code) = error, code == ENOENT { throw .blobMissing(ref) }
            throw error
        }
        return try file.isRegular() ? file.readAll() : []
    }

    /// Stores the content that a blob file's bytes (`stored`, from ``stored(_:)``) hold, once they are
    /// checked against `ref`; returns the content.
    @discardableResult
    public func put(stored: [UInt8], as ref: BlobRef) throws(EventLogError) -> [UInt8] {
        let content = try Self.content(ofFile: stored, as: ref)
        _ = try put(content)
        return content
    }

    /// The content a blob file's bytes hold, checked against `ref`.
    static func content(ofFile stored: [UInt8], as ref: BlobRef) throws(EventLogError) -> [UInt8] {
        let decoded = stored.withUnsafeBytes { frame in
            Result { () throws(LZ4Decoder.Failure) in
                guard case .complete(let size) = LZ4Frame.measure(frame), size == frame.count else {
                    throw LZ4Decoder.Failure(reason: "not one complete LZ4 frame")
                }
                return try LZ4Decoder().decode(frame)
            }
        }
        let content: [UInt8]
        switch decoded {
        case .success(let bytes): content = bytes
        case .failure(let failure): throw .blobDamaged(ref, reason: failure.reason)
        }
        guard content.count == ref.byteCount else {
            throw .blobDamaged(ref, reason: "holds \(content.count) bytes, expected \(ref.byteCount)")
        }
        guard Self.reference(for: content) == ref else {
            throw .blobDamaged(ref, reason: "its content no longer matches its sha256")
        }
        return content
    }

    /// Whether a file for `ref` exists (its content is not checked).
    public func contains(_ ref: BlobRef) -> Bool { FileSystem.exists(path(for: ref)) }

    /// The file that holds `ref`.
    public func path(for ref: BlobRef) -> String {
        "\(directory)/\(ref.sha256.prefix(2))/\(ref.sha256.dropFirst(2))"
    }
}

/// The shards that blobs went into since they were last synced, open: a rename is durable only once
/// its folder is synced, and one sync covers every rename in the folder before it.
struct BlobShards {
    /// The `blobs` folder, once opened.
    var root: Folder?
    private var folders: [String: Folder] = [:]

    /// The shard of that name, when a blob went into it.
    subscript(name: String) -> Folder? {
        get { folders[name] }
        set { folders[name] = newValue }
    }

    /// Syncs each shard once.
    func sync() throws(EventLogError) {
        for folder in folders.values { try folder.sync() }
    }
}
