import CoreValues
import EventLog
import Foundation

/// The files of a library as bytes, to show that a command changed none of them.
enum LibraryFiles {
    /// Every file under `folder` (links as their targets), by path relative to it.
    static func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let relative = enumerator?.nextObject() as? String {
            let path = folder + "/" + relative
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                files[relative] = Data(("-> " + target).utf8)
            } else if let data = FileManager.default.contents(atPath: path) {
                files[relative] = data
            }
        }
        return files
    }

    /// The live generation of the library's read models: its manifest.
    static func liveGeneration(_ library: String) throws -> String {
        library + "/" + (try FileManager.default.destinationOfSymbolicLink(atPath: library + "/read.sqlite"))
    }

    /// The file of the live generation that holds `projector`'s tables.
    static func liveFile(_ library: String, of projector: String) throws -> String {
        guard let file = try liveFiles(library)[projector] else { throw Missing(what: "the live generation names no file for \(projector)") }
        return file
    }

    /// The live generation's projectors' files, by projector name, as its manifest names them. The
    /// manifest is read with `sqlite3` as immutable (it is never changed once written), so that nothing
    /// of the library is touched, its WAL and index included.
    static func liveFiles(_ library: String) throws -> [String: String] {
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = ["file:" + (try liveGeneration(library)) + "?immutable=1", "SELECT name || ' ' || file FROM projection_files"]
        let out = Pipe()
        sqlite.standardOutput = out
        try sqlite.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        sqlite.waitUntilExit()
        var files: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 { files[String(parts[0])] = library + "/read/" + parts[1] }
        }
        return files
    }

    /// The database files of `read/` that are not set aside, by name.
    static func readModelFiles(_ library: String) -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: library + "/read")) ?? []
        return Set(names.filter { $0.hasSuffix(".sqlite") && $0.split(separator: ".").count == 2 })
    }

    /// The names of the live generation's files: its manifest and its projectors' files.
    static func liveGenerationFiles(_ library: String) throws -> Set<String> {
        Set(([try liveGeneration(library)] + Array(try liveFiles(library).values)).map { ($0 as NSString).lastPathComponent })
    }

    struct Missing: Error { let what: String }

    /// Appends a rename of the podcast straight to the log, as a command that died before projecting it
    /// would leave it: the read models are one event behind.
    static func appendUnprojectedRename(library: String, podcast: String, to name: String) throws {
        let log = try EventLog(at: library)
        let event = ProposedEvent(
            stream: StreamID(rawValue: "podcast-" + podcast)!, type: "PodcastRenamed",
            json: #"{"name":"\#(name)","podcastID":"\#(podcast)"}"#)
        try log.write { writer in
            try writer.append(Commit(events: [event], commandID: CommandID(UUID()), actor: "tester", timestamp: Timestamp(Date())!))
        }
    }
}

extension LibraryFiles {
    /// A copy of `library` at `copy` whose log rolls to a new segment every `segmentBytes`: the same
    /// commits under the same id, so that its hash chain is the original's, but in many segments, all
    /// sealed but the last, and none compacted (a library's own writers compact each segment they seal,
    /// and seal none before 512 KiB). The blobs are copied; the read models are left for the first
    /// command to build.
    static func resegmented(_ library: String, into copy: String, segmentBytes: UInt64) throws {
        let source = try EventLog(at: library)
        let target = try EventLog.create(
            at: copy, id: source.libraryID!, options: EventLog.Options(segmentSizeLimit: segmentBytes, automaticCompaction: nil))
        var commits: [StoredCommit] = []
        try source.readCommits(from: LogPosition(1)) { commits.append($0) }
        try target.write { try $0.copy(commits) }
        try FileManager.default.removeItem(atPath: copy + "/blobs")
        try FileManager.default.copyItem(atPath: library + "/blobs", toPath: copy + "/blobs")
    }

    /// The log's segment files, by name.
    static func segments(_ library: String) throws -> [String: Data] {
        try snapshot(library + "/log").filter { $0.key.hasSuffix(".seg") }
    }
}

/// Mounts for the tests that need another file system: a read-only view, a small one that fills up.
/// They need root; a test that cannot mount says why and skips, or fails under CI (`Need`).
enum Mounts {
    /// Runs `mount arguments...`; nil when it worked, else what it said.
    static func mount(_ arguments: [String]) -> String? {
        run("/bin/mount", arguments)
    }

    static func unmount(_ path: String) {
        _ = run("/bin/umount", [path])
    }

    /// `folder` again at `path`, read-only.
    static func readOnlyView(of folder: String, at path: String) -> String? {
        if let refused = mount(["--bind", folder, path]) { return refused }
        if let refused = mount(["-o", "remount,bind,ro", path]) {
            unmount(path)
            return refused
        }
        return nil
    }

    private static func run(_ tool: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { return "\(tool) cannot run: \(error)" }
        let said = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : "`\(tool) \(arguments.joined(separator: " "))` said: " + String(decoding: said, as: UTF8.self)
    }
}
