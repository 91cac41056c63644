import Foundation
import TestSupport
import Testing

@testable import EventLog

/// A reader following the log is woken by a write to its folder, not by its poll.
@Suite("Folder watch")
struct FolderWatchTests {
    @Test("a write, a new file or a rename into the folder wakes the wait; a quiet folder lets it time out", .timeLimit(.minutes(1)))
    func wakes() throws {
        let folder = TemporaryFolder("folder-watch")
        let watch = FolderWatch(folder: folder.path)
        #expect(watch.isWatching)
        #expect(watch.wait(timeout: .milliseconds(50)) == false, "nothing happened")

        // A file made by another process while the watch waits: the wait ends as changed, long before its timeout.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "sleep 0.2; echo commit >> \"$0\"", folder.path + "/00000001.seg"]
        try writer.run()
        #expect(watch.wait(timeout: .seconds(30)) == true)
        writer.waitUntilExit()

        // Changes made between two waits are kept: the next wait returns at once, then the folder is quiet again.
        try Data("more".utf8).write(to: URL(fileURLWithPath: folder.path + "/00000001.seg"))
        try FileManager.default.moveItem(atPath: folder.path + "/00000001.seg", toPath: folder.path + "/00000002.seg")
        #expect(watch.wait(timeout: .seconds(30)) == true)
        #expect(watch.wait(timeout: .milliseconds(50)) == false, "one wake-up stands for every change before it")
    }

    @Test("cancel ends the current wait from another thread, and every later wait returns at once", .timeLimit(.minutes(1)))
    func cancel() throws {
        let folder = TemporaryFolder("folder-watch")
        let watch = FolderWatch(folder: folder.path)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { watch.cancel() }
        #expect(watch.wait(timeout: .seconds(30)) == true)
        #expect(watch.isCancelled)
        #expect(watch.wait(timeout: .seconds(30)) == true)
    }

    @Test("a folder that cannot be watched makes every wait a plain timeout")
    func unwatchable() {
        let watch = FolderWatch(folder: "/nonexistent/episodic/log")
        #expect(!watch.isWatching)
        #expect(watch.wait(timeout: .milliseconds(20)) == false)
    }
}
