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

    /// The live generation of the library's read models.
    static func liveGeneration(_ library: String) throws -> String {
        library + "/" + (try FileManager.default.destinationOfSymbolicLink(atPath: library + "/read.sqlite"))
    }

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

/// Mounts for the tests that need another file system: a read-only view, a small one that fills up.
/// They need root; a test that cannot mount says why and skips.
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
