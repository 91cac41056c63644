import CoreValues
import Crypto
import Foundation

/// Content-addressed storage for heavy content (transcripts, SRT output, images).
///
/// Each blob is one file, `blobs/<first 2 hex digits>/<other 62>`, holding its content as one LZ4 frame.
/// Files are written once and never changed: a put of content that is already there does nothing.
/// Every read checks the content against its hash.
public struct BlobStore: Sendable {
    /// The `blobs` folder of a library.
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The sha256 reference of `bytes`, without storing them.
    public static func reference(for bytes: some DataProtocol) -> BlobRef {
        BlobRef(sha256: SHA256.hash(data: bytes).lowercaseHex, byteCount: bytes.count)!
    }

    /// Stores `bytes` durably (file and folder fsynced) and returns their reference.
    @discardableResult
    public func put(_ bytes: [UInt8]) throws(EventLogError) -> BlobRef {
        let ref = Self.reference(for: bytes)
        let target = path(for: ref)
        if FileSystem.exists(target) { return ref }

        let folder = (target as NSString).deletingLastPathComponent
        if try FileSystem.makeDirectory(folder) { try FileSystem.syncDirectory(directory) }
        let temporary = folder + "/.incoming-\(getpid())-\(ref.sha256.suffix(8))"
        do {
            let file = try File.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC)
            try file.write(LZ4Frame.compress(bytes, settings: .init(level: 0)), at: 0)
            try file.sync()
            try FileSystem.rename(temporary, to: target)
            try FileSystem.syncDirectory(folder)
        } catch {
            try? FileSystem.remove(temporary)
            throw error
        }
        return ref
    }

    /// The content of `ref`, checked against its hash.
    public func get(_ ref: BlobRef) throws(EventLogError) -> [UInt8] {
        let file: File
        do {
            file = try File.openForReading(path(for: ref))
        } catch {
            if case .io(_, _, let code) = error, code == ENOENT { throw .blobMissing(ref) }
            throw error
        }
        return try Self.content(ofFile: file.readAll(), as: ref)
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
