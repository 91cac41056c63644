import Foundation
import Testing

@testable import EventLog

@Suite("Backup and restore of the log")
struct BackupTests {
    /// Three segments (a small segment limit), with blobs referenced from the first and last.
    func libraryWithBlobs() throws -> (TemporaryLibrary, EventLog, [BlobRef]) {
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 600))
        let refs = try (1...3).map { i in try log.blobs.put(Array("transcript \(i) ".utf8) + [UInt8](repeating: UInt8(i), count: 5000)) }
        try log.write { writer in
            try writer.append(Given.commit(Given.event("a", "Attached", #"{"n":1}"#, blobs: [refs[0]])))
            for i in 1...12 { try writer.append(Given.commit(Given.event("s", "Step", #"{"i":\#(i),"pad":"\#(String(repeating: "x", count: 90))"}"#))) }
            try writer.append(Given.commit(Given.event("a", "Attached", #"{"n":2}"#, blobs: [refs[1], refs[2]])))
        }
        return (library, log, refs)
    }

    @Test("a restored library verifies and holds the source's segments byte for byte, and its blobs")
    func roundTrip() throws {
        let (library, log, refs) = try libraryWithBlobs()
        #expect(log.segments.count >= 3)
        let archive = library.folder + "/backup.tar"
        let report = try log.backup(to: archive)
        #expect(report.head == LogPosition(14) && report.segments == log.segments.count && report.blobs == 3)
        #expect(try library.size(of: archive) == report.bytes)

        let restored = library.folder + "/restored"
        let result = try EventLog.restore(archive: archive, to: restored)
        #expect(result.head == LogPosition(14) && result.blobs == 3)
        for number in 1...UInt32(log.segments.count) {
            let name = "/log/" + Segment.name(of: number)
            #expect(try library.read(restored + name) == library.read(library.path + name), "\(name)")
        }
        let copy = try EventLog(at: restored)
        #expect(try copy.verify().isClean)
        #expect(try copy.allPayloads() == log.allPayloads())
        for ref in refs { #expect(try copy.blobs.get(ref) == log.blobs.get(ref)) }
        #expect(try FileSystem.contents(of: library.folder).sorted() == ["backup.tar", "library", "restored"])
    }

    @Test("the snapshot ends at the last whole frame: a frame being written (or torn) is not archived")
    func endsAtACommitBoundary() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        try Given.appended(3, to: "s", in: log)
        let segment = library.segmentPath(1)
        let acknowledged = try library.size(of: segment)
        // The start of a fourth commit's frame, as a writer in the middle of its pwrite leaves it.
        let frame = LZ4Frame.compress(Array(#"{"position":4}"#.utf8) + [0x0A], settings: .init(level: 0))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: segment))
        try handle.seekToEnd()
        try handle.write(contentsOf: frame.prefix(frame.count - 5))
        try handle.close()

        let archive = library.folder + "/backup.tar"
        let report = try library.open().backup(to: archive)
        #expect(report.head == LogPosition(3))
        // The archived segment stops where the acknowledged frames end; the source keeps its bytes.
        let restored = library.folder + "/restored"
        try EventLog.restore(archive: archive, to: restored)
        #expect(try library.size(of: restored + "/log/00000001.seg") == acknowledged)
        #expect(try library.read(restored + "/log/00000001.seg") == Array(library.read(segment).prefix(Int(acknowledged))))
        #expect(try library.size(of: segment) == acknowledged + UInt64(frame.count - 5))
        #expect(try EventLog(at: restored).verify().isClean)
    }

    @Test("a compaction after the snapshot changes nothing in the archive: the snapshot's files stay open")
    func compactionDuringBackup() throws {
        let (library, log, _) = try libraryWithBlobs()
        let before = try (1...UInt32(log.segments.count)).map { try library.read(library.segmentPath($0)) }
        let snapshot = try log.takeSnapshot()

        // Another instance (as another process would) rewrites every sealed segment, already compacted
        // by the writer that sealed it, and appends.
        let other = try library.open(EventLog.Options(segmentSizeLimit: 600))
        let compacted = try other.write { writer in
            let report = try writer.compact(CompactionSettings(frameContentSize: 1 << 12, level: 9, includeCompacted: true))
            try writer.append(Given.commit(Given.event("s", "Step", #"{"after":true}"#)))
            return report
        }
        #expect(compacted.segmentsCompacted >= 2)
        #expect(try library.read(library.segmentPath(1)) != before[0])

        let archive = library.folder + "/backup.tar"
        let report = try log.archive(snapshot, to: archive, replacing: false)
        #expect(report.head == LogPosition(14))
        let restored = library.folder + "/restored"
        try EventLog.restore(archive: archive, to: restored)
        for (i, bytes) in before.enumerated() {
            #expect(try library.read(restored + "/log/" + Segment.name(of: UInt32(i + 1))) == bytes)
        }
        #expect(try EventLog(at: restored).verify().isClean)
    }

    @Test("a missing or damaged blob fails the backup, and no file is left, not even a temporary one")
    func damagedBlobFailsTheBackup() throws {
        let (library, log, refs) = try libraryWithBlobs()
        let archive = library.folder + "/backup.tar"
        try library.flipBit(in: log.blobs.path(for: refs[1]), at: 20)
        #expect(throws: EventLogError.self) { try log.backup(to: archive) }
        try FileSystem.remove(log.blobs.path(for: refs[1]))
        #expect(throws: EventLogError.blobMissing(refs[1])) { try log.backup(to: archive) }
        #expect(try FileSystem.contents(of: library.folder) == ["library"])
    }

    @Test("an existing archive is kept unless replacing is asked for; a folder is never replaced")
    func existingArchive() throws {
        let (library, log, _) = try libraryWithBlobs()
        let archive = library.folder + "/backup.tar"
        try library.write(Array("keep me".utf8), to: archive)
        #expect(throws: BackupError.archiveExists(path: archive)) { try log.backup(to: archive) }
        #expect(try library.read(archive) == Array("keep me".utf8))
        #expect(try log.backup(to: archive, replacing: true).head == LogPosition(14))
        #expect(try EventLog.restore(archive: archive, to: library.folder + "/restored").head == LogPosition(14))
        try FileSystem.makeDirectory(library.folder + "/folder")
        #expect(throws: BackupError.archiveNotAFile(path: library.folder + "/folder")) {
            try log.backup(to: library.folder + "/folder", replacing: true)
        }
        #expect(try FileSystem.contents(of: library.folder).sorted() == ["backup.tar", "folder", "library", "restored"])
    }

    @Test("an empty library backs up and restores as an empty library")
    func emptyLibrary() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        let archive = library.folder + "/backup.tar"
        #expect(try log.backup(to: archive).head == LogPosition.none)
        let restored = try EventLog.restore(archive: archive, to: library.folder + "/restored")
        #expect(restored.head == .none && restored.segments == 0)
        #expect(try EventLog(at: library.folder + "/restored").verify().isClean)
    }
}

@Suite("Restore refusals")
struct RestoreRefusalTests {
    /// A valid backup, its entries as (header, data), to rebuild with changes.
    func entries() throws -> (TemporaryLibrary, [(TarHeader, [UInt8])]) {
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 400))
        let ref = try log.blobs.put(Array("some content".utf8))
        try log.write { writer in
            for i in 1...6 { try writer.append(Given.commit(Given.event("s", "Step", #"{"i":\#(i),"pad":"\#(String(repeating: "y", count: 80))"}"#, blobs: i == 6 ? [ref] : []))) }
        }
        let archive = library.folder + "/good.tar"
        _ = try log.backup(to: archive)
        let file = try File.openForReading(archive)
        var reader = try TarReader(file: file)
        var found: [(TarHeader, [UInt8])] = []
        while let entry = try reader.next() {
            found.append((entry.header, try file.read(count: Int(entry.header.size), at: entry.dataOffset)))
        }
        return (library, found)
    }

    func archive(_ entries: [(TarHeader, [UInt8])], at path: String) throws {
        let writer = TarWriter(output: .file(try File.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC)))
        for (header, data) in entries { try writer.add(header, contents: data) }
        try writer.finish()
    }

    /// Restores `entries` and returns the error; checks that nothing is left beside the archive.
    func refusal(_ entries: [(TarHeader, [UInt8])], in library: TemporaryLibrary) throws -> BackupError? {
        let path = library.folder + "/bad.tar"
        try archive(entries, at: path)
        let before = try FileSystem.contents(of: library.folder).sorted()
        var caught: BackupError?
        do {
            try EventLog.restore(archive: path, to: library.folder + "/restored")
        } catch let error as BackupError {
            caught = error
        }
        if caught != nil { #expect(try FileSystem.contents(of: library.folder).sorted() == before) }
        return caught
    }

    @Test("the entries as written restore (the baseline of the refusals below)")
    func baseline() throws {
        let (library, entries) = try entries()
        #expect(entries.map(\.0.name).contains("log/00000002.seg"))
        #expect(try refusal(entries, in: library) == nil)
        #expect(try EventLog(at: library.folder + "/restored").verify().isClean)
    }

    @Test("a name out of the folder, a link, a device or an unknown name is refused before anything is written")
    func unsafeAndUnexpectedNames() throws {
        let (library, entries) = try entries()
        func with(_ name: String, _ kind: TarHeader.Kind = .file) -> [(TarHeader, [UInt8])] {
            entries + [(TarHeader(name: name, kind: kind, size: kind == .file ? 2 : 0), kind == .file ? [1, 2] : [])]
        }
        for name in ["../x", "log/../../x", "/etc/x"] {
            guard case .unsafeEntry(_, let entry, _)? = try refusal(with(name), in: library) else {
                Issue.record("\(name) was not refused as unsafe")
                continue
            }
            #expect(entry == name)
        }
        for flag in Array("12346".utf8) {
            guard case .unsafeEntry? = try refusal(with("log/00000009.seg", .other(flag)), in: library) else {
                Issue.record("type \(flag) was not refused as unsafe")
                continue
            }
        }
        for name in ["read.sqlite", "LOCK", "index/streams.sorted", "log/1.seg", "log/0000000a.seg", "blobs/AB/cd", "blobs/ab/cd", "ID/x"] {
            guard case .notABackup(_, let entry, _)? = try refusal(with(name), in: library) else {
                Issue.record("\(name) was not refused")
                continue
            }
            #expect(entry == name)
        }
        guard case .notABackup? = try refusal(with("read", .folder), in: library) else { Issue.record("folder read/ accepted"); return }
    }

    @Test("a gap in the segments, a duplicate, a missing FORMAT or an oversized entry is refused")
    func incompleteOrInconsistent() throws {
        let (library, entries) = try entries()
        let withoutFirst = entries.filter { $0.0.name != "log/00000001.seg" }
        guard case .notABackup(_, _, let reason)? = try refusal(withoutFirst, in: library) else { Issue.record("gap accepted"); return }
        #expect(reason.contains("00000001.seg"))
        let segment = entries.first { $0.0.name == "log/00000002.seg" }!
        guard case .notABackup(_, _, let twice)? = try refusal(entries + [segment], in: library) else { Issue.record("duplicate accepted"); return }
        #expect(twice.contains("twice"))
        guard case .notABackup(_, _, let format)? = try refusal(entries.filter { $0.0.name != "FORMAT" }, in: library) else {
            Issue.record("no FORMAT accepted"); return
        }
        #expect(format.contains("FORMAT"))
        let big = entries.map { $0.0.name == "FORMAT" ? (TarHeader(name: "FORMAT", kind: .file, size: 100), [UInt8](repeating: 0x41, count: 100)) : $0 }
        guard case .notABackup? = try refusal(big, in: library) else { Issue.record("a 100-byte FORMAT accepted"); return }
    }

    @Test("a damaged segment or blob is found by the checks after writing, and the written files are removed")
    func damagedContent() throws {
        let (library, entries) = try entries()
        for target in ["log/00000001.seg", "log/00000003.seg", "blobs/"] {
            var changed = entries
            let at = changed.firstIndex { $0.0.name.hasPrefix(target) && $0.0.kind == .file }!
            changed[at].1[changed[at].1.count - 6] ^= 0x20
            guard case .restoredLibraryDamaged? = try refusal(changed, in: library) else {
                Issue.record("damage in \(target) was not found")
                continue
            }
        }
    }

    @Test("an archive cut short anywhere, or with a damaged header or byte, is refused")
    func truncatedAndDamaged() throws {
        let (library, entries) = try entries()
        let good = library.folder + "/good.tar"
        let bytes = try library.read(good)
        let path = library.folder + "/bad.tar"
        for cut in stride(from: 1, to: bytes.count - 2 * Tar.blockSize + 1, by: 97) + [bytes.count - 2 * Tar.blockSize] {
            try library.write(Array(bytes.prefix(cut)), to: path)
            #expect(throws: BackupError.self, "cut at \(cut)") { try EventLog.restore(archive: path, to: library.folder + "/restored") }
        }
        var flipped = bytes
        flipped[Tar.blockSize * 3 + 10] ^= 0x01  // a header's name
        try library.write(flipped, to: path)
        #expect(throws: BackupError.self) { try EventLog.restore(archive: path, to: library.folder + "/restored") }
        #expect(!FileSystem.exists(library.folder + "/restored"))
        #expect(entries.count > 3)

        // A byte changed anywhere: refused, or (in padding) restored to a library that verifies.
        for at in stride(from: 0, to: bytes.count, by: 29) {
            var changed = bytes
            changed[at] ^= 0xA5
            try library.write(changed, to: path)
            let restored = library.folder + "/restored-\(at)"
            do {
                try EventLog.restore(archive: path, to: restored)
                #expect(try EventLog(at: restored).verify().isClean, "byte \(at)")
            } catch is BackupError {
                #expect(!FileSystem.exists(restored))
            }
        }
    }

    @Test("sizes that would overflow, in a pax record or its length, are damage and not a crash")
    func hostileSizes() throws {
        let (library, entries) = try entries()
        let huge: [(TarHeader, [UInt8])] = [(TarHeader(name: "log/00000009.seg", kind: .file, size: .max), [])]
        guard case .damagedArchive? = try refusal(huge + entries, in: library) else { Issue.record("size 2^64-1 accepted"); return }
        for record in ["6 a=b\n9223372036854775807 path=x\n", "18446744073709551616 size=1\n", "30 size=18446744073709551615\n"] {
            let pax = (TarHeader(name: "PaxHeaders/x", kind: .extended, size: UInt64(record.utf8.count)), Array(record.utf8))
            guard case .damagedArchive? = try refusal([pax] + entries, in: library) else {
                Issue.record("pax record \(record) accepted")
                continue
            }
        }
    }

    @Test("the target must not exist or be an empty folder")
    func target() throws {
        let (library, _) = try entries()
        let good = library.folder + "/good.tar"
        do {
            try EventLog.restore(archive: good, to: library.path)
            Issue.record("restored into a library")
        } catch BackupError.targetNotEmpty(let path, let reason) {
            #expect(path == library.path && reason.contains("holds"))
        }
        try library.write([], to: library.folder + "/file")
        #expect(throws: BackupError.targetNotEmpty(path: library.folder + "/file", reason: "it is a file")) {
            try EventLog.restore(archive: good, to: library.folder + "/file")
        }
        let empty = library.folder + "/empty"
        try FileSystem.makeDirectory(empty)
        #expect(try EventLog.restore(archive: good, to: empty + "/").head == LogPosition(6))
        #expect(try EventLog(at: empty).verify().isClean)
        #expect(throws: BackupError.archiveMissing(path: library.folder + "/nope.tar")) {
            try EventLog.restore(archive: library.folder + "/nope.tar", to: library.folder + "/other")
        }
    }
}

@Suite("Tar headers")
struct TarTests {
    @Test("a header reads back as written, with pax records for a long name and a size beyond 8 GiB")
    func roundTrip() throws {
        let owner = TarHeader.Owner(uid: 1000, gid: 100, user: "ana", group: "users")
        for header in [
            TarHeader(name: "log/00000001.seg", kind: .file, size: 12345, mode: 0o644, modified: 1_790_000_000, owner: owner),
            TarHeader(name: "blobs/", kind: .folder, size: 0, mode: 0o755, modified: 1, owner: owner),
            TarHeader(name: String(repeating: "n", count: 150), kind: .file, size: 10 << 30, owner: owner),
        ] {
            var blocks = header.blocks()
            var pax: (path: String?, size: UInt64?) = (nil, nil)
            if case .header(let first) = try TarHeader.parse(Array(blocks.prefix(Tar.blockSize))), first.kind == .extended {
                pax = try TarHeader.paxRecords(Array(blocks[Tar.blockSize..<(Tar.blockSize + Int(first.size))]))
                blocks = Array(blocks.suffix(Tar.blockSize))
            }
            guard case .header(var parsed) = try TarHeader.parse(blocks) else { Issue.record("zeros"); return }
            parsed.name = pax.path ?? parsed.name
            parsed.size = pax.size ?? parsed.size
            #expect(parsed == header)
        }
    }

    @Test("the system's tar lists what TarWriter writes, long names included")
    func systemTarLists() throws {
        let library = TemporaryLibrary()
        let path = library.folder + "/t.tar"
        let long = "blobs/" + String(repeating: "0123456789", count: 15)
        let writer = TarWriter(output: .file(try File.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC)))
        try writer.add(TarHeader(name: "log/", kind: .folder, size: 0, mode: 0o755), contents: [])
        try writer.add(TarHeader(name: "log/00000001.seg", kind: .file, size: 3), contents: [1, 2, 3])
        try writer.add(TarHeader(name: long, kind: .file, size: 600), contents: [UInt8](repeating: 7, count: 600))
        try writer.finish()
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/tar")
        tar.arguments = ["tf", path]
        let out = Pipe()
        tar.standardOutput = out
        try tar.run()
        let listing = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        tar.waitUntilExit()
        #expect(tar.terminationStatus == 0)
        #expect(listing.split(separator: "\n").map(String.init) == ["log/", "log/00000001.seg", long])
    }

    @Test("no block of bytes crashes the header reader: random blocks and every bit of a real header flipped")
    func anyBytes() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let block = (0..<Tar.blockSize).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? TarHeader.parse(block)
            _ = try? TarHeader.paxRecords(Array(block.prefix(Int.random(in: 0...64))))
        }
        let real = TarHeader(name: "log/00000001.seg", kind: .file, size: 999).blocks()
        for bit in 0..<(Tar.blockSize * 8) {
            var block = real
            block[bit / 8] ^= 1 << (bit % 8)
            _ = try? TarHeader.parse(block)
        }
        for text in ["30 path=", "5 a=b\n", "99999999999999999999 x=y\n", "4 =\n\n", "6 size=-1\n", "12 size=1e9\n"] {
            _ = try? TarHeader.paxRecords(Array(text.utf8))
        }
    }
}
