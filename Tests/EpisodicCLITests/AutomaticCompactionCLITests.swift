import Foundation
import Testing

/// Commands that write compact the log's segments as they seal them; nobody runs `episodic log compact`.
@Suite("Automatic compaction")
struct AutomaticCompactionCLITests {
    /// A script of `count` episode creations, from number `first` on: as many commits of a few hundred
    /// bytes, which hardly compress, so that two such scripts fill the first segment and seal it (at
    /// 512 KiB).
    static func creations(_ count: Int, from first: Int) -> String {
        (first..<(first + count)).map { n in
            #"{"command":"episode.create","podcast":"Night Shift","title":"Episode \#(n): calls from listeners after midnight","description":"Listener \#(n) on what keeps them up."}"#
        }.joined(separator: "\n") + "\n"
    }

    static func segments(_ cli: CLI) throws -> [String: Int] {
        try #require(try cli.object("info")["segments"] as? [String: Int])
    }

    @Test("the command that seals a segment compacts it: the log holds the same lines, smaller, and verifies")
    func commandsCompact() throws {
        // Given a library whose first segment holds a script's commits
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        let first = try cli.run(["submit"], input: Self.creations(450, from: 1))
        #expect(first.status == 0, "\(first.err)")
        #expect(try Self.segments(cli) == ["count": 1, "sealed": 0, "compacted": 0])
        let lines = try cli.must("log", "--raw").out
        let segment = cli.library + "/log/00000001.seg"
        let bytes = try #require(FileManager.default.contents(atPath: segment))

        // When another script's commits do not fit in it
        let second = try cli.run(["submit"], input: Self.creations(450, from: 451))
        #expect(second.status == 0, "\(second.err)")

        // Then that script sealed and compacted it, with no `log compact` run
        #expect(try Self.segments(cli) == ["count": 2, "sealed": 1, "compacted": 1])
        let compacted = try #require(FileManager.default.contents(atPath: segment))
        #expect(compacted.count < bytes.count, "\(compacted.count) bytes, \(bytes.count) before")
        // And the log holds the same lines, the newer ones after them, and verifies
        let now = try cli.must("log", "--raw").out
        #expect(now.hasPrefix(lines))
        #expect(now.split(separator: "\n").count == 901)
        #expect(try cli.run("log", "verify").status == 0)
        try cli.must("episode", "retitle", "Night Shift/7", "Seven")
        #expect(try cli.object("episode", "show", "Night Shift/7")["title"] as? String == "Seven")
    }

    @Test("a command killed while it compacts loses nothing; the next command that writes finishes the compaction")
    func killedWhileCompacting() throws {
        var landed = false
        for _ in 1...3 where !landed {
            // Given a library whose first segment holds a script's acknowledged commits
            let cli = CLI()
            try cli.must("init")
            try cli.must("podcast", "create", "Night Shift")
            let first = try cli.run(["submit"], input: Self.creations(450, from: 1))
            #expect(first.status == 0, "\(first.err)")
            let lines = try cli.must("log", "--raw").out

            // When the script whose commits seal it is killed once the compaction's new file shows
            let running = try cli.start(["submit"], input: Self.creations(450, from: 451))
            // Its output read meanwhile: a child blocked on a full pipe would never reach the compaction.
            Thread { _ = running.out.fileHandleForReading.readDataToEndOfFile() }.start()
            let log = cli.library + "/log"
            while running.process.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: log)) ?? []
                if names.contains(where: { $0.hasSuffix(".compacting") }) {
                    kill(running.process.processIdentifier, SIGKILL)
                    break
                }
            }
            let run = running.finish()
            guard run.signaled else { continue }
            let names = try FileManager.default.contentsOfDirectory(atPath: log)
            landed = names.contains { $0.hasSuffix(".compacting") }

            // Then the log verifies, and holds every acknowledged line
            #expect(try cli.run("log", "verify").status == 0)
            #expect(try cli.must("log", "--raw").out.hasPrefix(lines))
            // And the next command that writes removes the leftover and compacts the sealed segment
            try cli.must("episode", "retitle", "Night Shift/7", "Seven")
            #expect(!(try FileManager.default.contentsOfDirectory(atPath: log)).contains { $0.hasSuffix(".compacting") })
            #expect(try Self.segments(cli)["compacted"] == 1)
            #expect(try cli.must("log", "--raw").out.hasPrefix(lines))
            #expect(try cli.run("log", "verify").status == 0)
        }
        #expect(landed, "no kill landed while the compaction's file was being written")
    }
}
