import Foundation
import Testing

@testable import EventLog

/// Nothing is written through a symbolic link inside a library, files get the process's umask, a damaged
/// blob is written again, and what killed commands left behind is cleared: on real files.
@Suite("Files of the library, and nothing else")
struct FileSafetyTests {
    let content = Array(String(repeating: "00:00:01.000 Speaker\nA line of transcript text.\n\n", count: 200).utf8)

    @Test("a LOCK that is a symbolic link is refused, and what it points to is never touched or created", arguments: [true, false])
    func symlinkedLock(targetExists: Bool) throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        let target = library.folder + "/precious"
        if targetExists { try library.write(Array("keep me\n".utf8), to: target) }
        try FileManager.default.createSymbolicLink(atPath: library.path + "/LOCK", withDestinationPath: target)

        let error = #expect(throws: EventLogError.self) { try log.write { try $0.append(Given.commit(Given.event("s"))) } }
        #expect(error?.description.contains("LOCK is a symbolic link") == true, "\(String(describing: error))")
        #expect(throws: EventLogError.self) { try log.withWriterLock {} }

        if targetExists {
            #expect(try library.read(target) == Array("keep me\n".utf8))
        } else {
            #expect(!FileManager.default.fileExists(atPath: target))
        }
        #expect(try library.open().head == .none)
    }

    @Test("a blob shard folder that is a symbolic link is refused, and nothing lands where it points")
    func symlinkedShard() throws {
        let library = TemporaryLibrary()
        let blobs = try library.create().blobs
        let ref = BlobStore.reference(for: content)
        let outside = try library.outsideFolder()
        try FileManager.default.createSymbolicLink(atPath: blobs.directory + "/" + ref.sha256.prefix(2), withDestinationPath: outside)

        let error = #expect(throws: EventLogError.self) { try blobs.put(content) }
        #expect(error?.description.contains("blobs/\(ref.sha256.prefix(2)) is a symbolic link") == true, "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
        #expect(try library.temporaryFiles(in: blobs.directory).isEmpty)
    }

    @Test("log/ or blobs/ as a symbolic link: writing is refused, and what it points to is unchanged", arguments: ["log", "blobs"])
    func symlinkedFolder(name: String) throws {
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 200))
        try Given.appended(2, to: "s", in: log)
        let outside = try library.outsideFolder() + "/" + name
        try FileManager.default.moveItem(atPath: library.path + "/" + name, toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: library.path + "/" + name, withDestinationPath: outside)
        let before = try library.tree(outside)

        let error = #expect(throws: EventLogError.self) {
            let log = try library.open(EventLog.Options(segmentSizeLimit: 200))
            try log.write { writer in
                _ = try log.blobs.put(content)
                try writer.append(Given.commit(Given.event("s")))
            }
        }
        #expect(error?.description.contains("\(name) is a symbolic link") == true, "\(String(describing: error))")
        #expect(try library.tree(outside) == before)
    }

    @Test("index/ as a symbolic link is set aside for a real folder, and what it pointed to is unchanged")
    func symlinkedIndex() throws {
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(indexMergeThreshold: 2))
        try Given.appended(3, to: "s", in: log)
        let outside = try library.outsideFolder() + "/index"
        try FileManager.default.moveItem(atPath: library.path + "/index", toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: library.path + "/index", withDestinationPath: outside)
        let before = try library.tree(outside)

        let reopened = try library.open(EventLog.Options(indexMergeThreshold: 2))
        try Given.appended(3, to: "s", in: reopened)

        #expect(try library.tree(outside) == before)
        var info = stat()
        #expect(lstat(library.path + "/index", &info) == 0 && info.st_mode & S_IFMT == S_IFDIR)
        #expect(FileManager.default.fileExists(atPath: library.path + "/index/streams.sorted"))
        #expect(try library.open().events(in: "s").map(\.json) == (1...3).map { #"{"i":\#($0)}"# } + (1...3).map { #"{"i":\#($0)}"# })
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: library.path + "/index.damaged") == outside)
        #expect(reopened.setAsideDerivedFiles == [SetAsideDerivedFile(place: "index/", keptAs: "index.damaged", found: "a symbolic link")])
    }

    @Test("index/ as a file, twice: each is kept, under the next free name, and the index made again from the log")
    func indexAsAFile() throws {
        // Given a library whose index/ has been a file before, kept as index.damaged, and is a file again
        let library = TemporaryLibrary()
        let options = EventLog.Options(indexMergeThreshold: 2)
        try Given.appended(3, to: "s", in: try library.create(options))
        for text in ["first", "second"] {
            try FileManager.default.removeItem(atPath: library.path + "/index")
            try library.write(Array(text.utf8), to: library.path + "/index")

            // When a writer appends
            let log = try library.open(options)
            try Given.appended(1, to: "s", in: log)

            // Then the file is kept aside, said so, and the index is a folder again that answers as the log
            let kept = text == "first" ? "index.damaged" : "index.damaged-2"
            #expect(try library.read(library.path + "/" + kept) == Array(text.utf8))
            #expect(log.setAsideDerivedFiles == [SetAsideDerivedFile(place: "index/", keptAs: kept, found: "a file")])
            #expect(FileSystem.isDirectory(library.path + "/index") == true)
        }
        #expect(StreamIndex.claimedCoverage(in: library.path + "/index") == 5)
        #expect(try library.open(options).events(in: "s").count == 5)
    }

    @Test("links planted at the old, predictable temporary names, or in place of a file, are never written through")
    func plantedLinks() throws {
        let library = TemporaryLibrary()
        let outside = try library.outsideFolder()
        func plant(_ relative: String) throws {
            let target = outside + "/" + relative.replacingOccurrences(of: "/", with: "_")
            try library.write(Array("outside \(relative)\n".utf8), to: target)
            try FileManager.default.createSymbolicLink(atPath: library.path + "/" + relative, withDestinationPath: target)
        }
        try FileManager.default.createDirectory(atPath: library.path, withIntermediateDirectories: true)
        try plant("FORMAT.new")
        let log = try library.create(EventLog.Options(indexMergeThreshold: 1))
        let ref = BlobStore.reference(for: content)
        let shard = "blobs/" + ref.sha256.prefix(2)
        try FileManager.default.createDirectory(atPath: library.path + "/" + shard, withIntermediateDirectories: true)
        for relative in [
            "index/streams.sorted.new", "index/streams.tail.new", "index/streams.sorted", "index/streams.recent", "index/streams.tail",
            "\(shard)/.incoming-\(getpid())-\(ref.sha256.suffix(8))", "\(shard)/\(ref.sha256.dropFirst(2))",
        ] {
            try plant(relative)
        }
        let before = try library.tree(outside)

        try Given.appended(4, to: "s", in: log)
        #expect(try log.blobs.put(content) == ref)

        #expect(try library.tree(outside) == before)
        #expect(try log.blobs.get(ref) == content)
        var info = stat()
        #expect(lstat(log.blobs.path(for: ref), &info) == 0 && info.st_mode & S_IFMT == S_IFREG, "the link was replaced by the blob")
        #expect(try library.open().events(in: "s").count == 4)

        // A link in place of a segment: the writer refuses to append through it.
        let segment = library.segmentPath(1)
        let copy = outside + "/segment-copy"
        try FileManager.default.moveItem(atPath: segment, toPath: copy)
        try FileManager.default.createSymbolicLink(atPath: segment, withDestinationPath: copy)
        let copied = try library.read(copy)
        let error = #expect(throws: EventLogError.self) { try Given.appended(1, to: "s", in: library.open()) }
        #expect(error?.description.contains("log/00000001.seg is a symbolic link") == true, "\(String(describing: error))")
        #expect(try library.read(copy) == copied)
    }

    @Test("files and folders are created with the process's umask", arguments: [0o002, 0o077] as [mode_t])
    func umask(mask: mode_t) throws {
        let library = TemporaryLibrary()
        let helper = TestWriter.path
        let script = "umask \(String(mask, radix: 8)) && \"$0\" append \"$1\" u 3 && \"$0\" put \"$1\" hello"
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", script, helper, library.path]
        try shell.run()
        shell.waitUntilExit()
        try #require(shell.terminationStatus == 0)

        let sha = BlobStore.reference(for: Array("hello".utf8)).sha256
        let folders = ["", "/log", "/index", "/blobs", "/blobs/" + sha.prefix(2)]
        let files = ["/FORMAT", "/LOCK", "/log/00000001.seg", "/index/streams.tail", "/blobs/\(sha.prefix(2))/\(sha.dropFirst(2))"]
        for folder in folders { #expect(try library.mode(of: library.path + folder) == 0o777 & ~mask, "\(folder)") }
        for file in files { #expect(try library.mode(of: library.path + file) == 0o666 & ~mask, "\(file)") }
    }

    enum Damage: String, CaseIterable { case flippedBit, truncated, empty, garbage }

    @Test("re-putting content whose blob file is damaged writes it again, whole", arguments: Damage.allCases)
    func damagedBlobRewritten(damage: Damage) throws {
        let library = TemporaryLibrary()
        let blobs = try library.create().blobs
        let ref = try blobs.put(content)
        let file = blobs.path(for: ref)
        switch damage {
        case .flippedBit: try library.flipBit(in: file, at: 40)
        case .truncated: try library.truncate(file, to: library.size(of: file) / 2)
        case .empty: try library.truncate(file, to: 0)
        case .garbage: try library.write((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37) }, to: file)
        }
        #expect(throws: EventLogError.self) { try blobs.get(ref) }

        #expect(try blobs.put(content) == ref)

        #expect(try blobs.get(ref) == content)
        #expect(try library.temporaryFiles(in: blobs.directory).isEmpty)
    }

    @Test("temporary files of killed writers are removed by the next writer; one a live process still writes is kept")
    func leftoversRemoved() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        let blobs = try Folder.inside(library.path, at: log.blobs.directory)
        let index = try Folder.inside(library.path, at: library.path + "/index")
        let root = try Folder.library(library.path)
        // What a killed `put`, a killed index merge or catalog write and a killed `create` leave: files no one holds locked.
        let abandoned = [
            "blobs/" + (try blobs.createTemporary(prefix: BlobStore.incomingPrefix).name),
            "blobs/" + (try blobs.createTemporary(prefix: BlobStore.incomingPrefix).name),
            "index/" + (try index.createTemporary(prefix: Folder.temporaryPrefix(for: "streams.sorted")).name),
            "index/" + (try index.createTemporary(prefix: Folder.temporaryPrefix(for: "streams.recent")).name),
            "index/" + (try index.createTemporary(prefix: Folder.temporaryPrefix(for: "streams.tail")).name),
            "index/" + (try index.createTemporary(prefix: Folder.temporaryPrefix(for: SegmentCatalog.fileName)).name),
            try root.createTemporary(prefix: Folder.temporaryPrefix(for: "FORMAT")).name,
            try root.createTemporary(prefix: Folder.temporaryPrefix(for: "ID")).name,
        ]
        // A store still under way: its writer holds the file locked.
        var live: (name: String, file: File)? = try blobs.createTemporary(prefix: BlobStore.incomingPrefix)
        let liveName = live!.name
        try live?.file.write(Array("partial".utf8), at: 0)
        abandoned.forEach { #expect(FileManager.default.fileExists(atPath: library.path + "/" + $0)) }

        try Given.appended(1, to: "s", in: log)

        abandoned.forEach { #expect(!FileManager.default.fileExists(atPath: library.path + "/" + $0), "\($0)") }
        #expect(try library.temporaryFiles(in: log.blobs.directory) == [liveName])
        #expect(try library.read(log.blobs.directory + "/" + liveName) == Array("partial".utf8))

        // Once its writer is gone (its descriptor closed, as when it is killed), the next writer takes it.
        live = nil
        try Given.appended(1, to: "s", in: log)
        #expect(try library.temporaryFiles(in: log.blobs.directory).isEmpty)
    }

    @Test("temporary names are random and never reuse a file that exists")
    func temporaryNames() throws {
        let library = TemporaryLibrary()
        _ = try library.create()
        let folder = try Folder.library(library.path)
        let names = try (0..<20).map { _ in try folder.createTemporary(prefix: ".t-").name }
        #expect(Set(names).count == 20)
        #expect(names.allSatisfy { $0.count == ".t-".count + 16 })
    }

    @Test("a folder is empty while it holds nothing but . and ..: a hidden file, or a name of two dots and more, is something")
    func emptyFolders() throws {
        let library = TemporaryLibrary()
        _ = try library.create()
        for (i, name) in [".", "..a", "a", ".incoming-1"].enumerated() {
            let path = library.folder + "/folder-\(i)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            #expect(try Folder.inside(library.folder, at: path).isEmpty())
            if name != "." { try library.write([1], to: path + "/" + name) }
            #expect(try Folder.inside(library.folder, at: path).isEmpty() == (name == "."), "\(name)")
        }
    }
}

extension TemporaryLibrary {
    /// A folder beside the library (not in it), which nothing the library does may touch.
    func outsideFolder() throws -> String {
        let outside = folder + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        return outside
    }

    /// Every file under `root` with its bytes, following nothing.
    func tree(_ root: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for relative in try FileManager.default.subpathsOfDirectory(atPath: root) {
            var info = stat()
            guard lstat(root + "/" + relative, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            files[relative] = try read(root + "/" + relative)
        }
        return files
    }

    /// The names in `folder` that are temporary files (they start with a dot).
    func temporaryFiles(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }
    }

    /// The permission bits of `path`.
    func mode(of path: String) throws -> mode_t {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return info.st_mode & 0o777
    }
}
