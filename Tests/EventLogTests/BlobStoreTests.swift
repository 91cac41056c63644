import Foundation
import Testing

@testable import EventLog

@Suite("Blob store")
struct BlobStoreTests {
    let content = Array(String(repeating: "00:00:01.000 Speaker\nA line of transcript text.\n\n", count: 2000).utf8)

    @Test("put returns the sha256 and size, and get gives the same bytes back")
    func roundTrip() throws {
        let library = TemporaryLibrary()
        let blobs = try library.create().blobs

        let ref = try blobs.put(content)

        #expect(ref.byteCount == content.count)
        #expect(ref == BlobStore.reference(for: content))
        #expect(ref.sha256.count == 64)
        #expect(try blobs.get(ref) == content)
        let stored = try library.size(of: blobs.path(for: ref))
        #expect(stored < UInt64(content.count) / 10, "stored LZ4-compressed")
        #expect(blobs.path(for: ref).hasSuffix("/blobs/\(ref.sha256.prefix(2))/\(ref.sha256.dropFirst(2))"))
    }

    @Test("known content has its known sha256")
    func knownHash() {
        #expect(BlobStore.reference(for: Array("abc".utf8)).sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(BlobStore.reference(for: [UInt8]()).byteCount == 0)
    }

    @Test("putting content that is already stored writes nothing")
    func idempotent() throws {
        let library = TemporaryLibrary()
        let blobs = try library.create().blobs
        let ref = try blobs.put(content)
        let path = blobs.path(for: ref)
        let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as! NSNumber

        #expect(try blobs.put(content) == ref)

        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as! NSNumber == inode)
        #expect(try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent).count == 1)
    }

    @Test("a damaged blob file is a typed error")
    func damaged() throws {
        let library = TemporaryLibrary()
        let blobs = try library.create().blobs
        let ref = try blobs.put(content)
        try library.flipBit(in: blobs.path(for: ref), at: 30)

        #expect { try blobs.get(ref) } throws: { error in
            guard case .blobDamaged(let damaged, _) = error as? EventLogError else { return false }
            return damaged == ref
        }
    }

    @Test("a pipe in place of a blob file is a damaged blob, found without waiting for a writer")
    func pipe() throws {
        let library = TemporaryLibrary()
        let blobs = try library.create().blobs
        let ref = try blobs.put(content)
        try FileManager.default.removeItem(atPath: blobs.path(for: ref))
        #expect(mkfifo(blobs.path(for: ref), 0o644) == 0)

        #expect { try blobs.get(ref) } throws: { error in
            guard case .blobDamaged(let damaged, _) = error as? EventLogError else { return false }
            return damaged == ref
        }
    }

    @Test("a blob whose content does not match its hash is a typed error")
    func hashMismatch() throws {
        let library = TemporaryLibrary()
        let blobs = try library.create().blobs
        let ref = try blobs.put(content)
        var other = content
        other[0] = UInt8(ascii: "9")
        // A valid frame, of the right size, holding other bytes.
        try library.write(LZ4Frame.compress(other), to: blobs.path(for: ref))

        #expect(throws: EventLogError.blobDamaged(ref, reason: "its content no longer matches its sha256")) {
            try blobs.get(ref)
        }
    }

    @Test("a missing blob is a typed error")
    func missing() throws {
        let library = TemporaryLibrary()
        let blobs = try library.create().blobs
        let ref = BlobStore.reference(for: Array("never stored".utf8))
        #expect(throws: EventLogError.blobMissing(ref)) { try blobs.get(ref) }
        #expect(!blobs.contains(ref))
    }

    @Test("blob references accept only sha256 hex digits")
    func references() throws {
        #expect(BlobRef(sha256: String(repeating: "a", count: 64), byteCount: 1) != nil)
        #expect(BlobRef(sha256: String(repeating: "A", count: 64), byteCount: 1) == nil)
        #expect(BlobRef(sha256: "abc", byteCount: 1) == nil)
        #expect(BlobRef(sha256: String(repeating: "a", count: 64), byteCount: -1) == nil)
        let json = try JSONEncoder().encode(BlobRef(sha256: String(repeating: "0", count: 64), byteCount: 5))
        #expect(String(decoding: json, as: UTF8.self).contains(#""bytes":5"#))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(BlobRef.self, from: Data(#"{"sha256":"xyz","bytes":1}"#.utf8))
        }
    }
}
