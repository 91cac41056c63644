import Foundation
import Testing

/// A read model that SQLite cannot open, that it reports malformed, or that does not describe the log
/// is never fatal and never trusted: the next command sets it aside, rebuilds it from the log, and says so.
@Suite("Damaged or stale read models")
struct DamagedReadModelTests {
    /// A library of one podcast and `episodes` episodes, their titles listed.
    func library(episodes: Int = 30) throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        let lines = (1...episodes).map { #"{"command":"episode.create","podcast":"Show","title":"Episode \#($0)"}"# }
        try cli.must("submit", input: lines.joined(separator: "\n"))
        return cli
    }

    func titles(_ cli: CLI, environment: [String: String] = [:]) throws -> (titles: Set<String>, err: String) {
        let run = try cli.run(["episode", "list", "Show", "--json"], environment: environment)
        #expect(run.status == 0, "\(run.err)")
        let episodes = try run.json() as? [[String: Any]] ?? []
        return (Set(episodes.compactMap { $0["title"] as? String }), run.err)
    }

    /// The manifests of `read/` that were set aside (each with its projectors' files beside it).
    func setAside(_ cli: CLI) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: cli.library + "/read").filter { name in
            name.hasSuffix(".sqlite") && name.split(separator: ".").count == 3 && name.prefix { $0 != "." }.allSatisfy(\.isNumber)
        }
    }

    /// Overwrites the first bytes of the root page of `table` in the live file of `projector`: by
    /// default the sidebar's episodes, which a command's decision reads; `search_documents`, in the
    /// search index, is read by a retitle's projection only.
    func breakRootPage(_ cli: CLI, of table: String = "sidebar_episodes", in projector: String = "sidebar") throws {
        let generation = try LibraryFiles.liveFile(cli.library, of: projector)
        // Fold the WAL into the file first, so that the page read is the one broken.
        let text = try sqlite(generation, "PRAGMA wal_checkpoint(TRUNCATE); SELECT rootpage FROM sqlite_schema WHERE name = '\(table)';")
        let page = try #require(text.split(separator: "\n").compactMap { Int($0) }.first)
        let file = try #require(FileHandle(forUpdatingAtPath: generation))
        try file.seek(toOffset: UInt64((page - 1) * 4096))
        try file.write(contentsOf: Data([0x0D, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]))
        try file.close()
    }

    /// What `sqlite3 path sql` prints.
    func sqlite(_ path: String, _ sql: String) throws -> String {
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [path, sql]
        let out = Pipe()
        sqlite.standardOutput = out
        try sqlite.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        sqlite.waitUntilExit()
        return text
    }

    @Test(
        "a read model of garbage, truncated, or with a broken B-tree page is set aside and rebuilt by the next command",
        arguments: ["garbage", "truncated", "page"])
    func damaged(kind: String) throws {
        let cli = try library()
        let expected = try titles(cli).titles
        #expect(expected.count == 30)
        let generation = try LibraryFiles.liveFile(cli.library, of: "sidebar")
        switch kind {
        case "garbage":
            try Data((0..<60_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: URL(fileURLWithPath: generation))
            try? FileManager.default.removeItem(atPath: generation + "-wal")
        case "truncated":
            _ = try cli.run("projections", "status")  // folds the WAL into the file when it closes
            try FileManager.default.removeItem(atPath: generation + "-wal")
            #expect(truncate(generation, 20_000) == 0)
        default:
            try breakRootPage(cli)
        }

        let after = try titles(cli)
        #expect(after.titles == expected)
        let kept = try setAside(cli)
        #expect(kept.count == 1 && kept.first?.contains(".damaged.") == true, "\(kept)")
        #expect(after.err.contains(#""kind":"rebuilt""#) && after.err.contains("malformed") && after.err.contains(kept.first ?? "-"), "\(after.err)")
        // Said once; from then on the rebuilt model is used quietly, and it is what the log says.
        #expect(try titles(cli).err.isEmpty)
        #expect(try cli.run("log", "verify").status == 0)
        #expect(try cli.list("projections", "status").allSatisfy { $0["current"] as? Bool == true })
    }

    @Test(
        "a write that meets a broken page while deciding exits 74; the read model is set aside and rebuilt, and the write goes in again",
        arguments: ["submit", "submit --atomic", "undo"])
    func brokenPageWhileDeciding(command: String) throws {
        let cli = try library()
        try cli.must("episode", "delete", "Show/3")
        try breakRootPage(cli)
        // Numbering a new episode, or bringing the deleted one back under its number, reads the
        // podcast's episodes from the broken page.
        let write = { () throws -> CLI.Run in
            command == "undo"
                ? try cli.run("undo", "--last")
                : try cli.run(command.split(separator: " ").map(String.init), input: #"{"command":"episode.create","podcast":"Show","title":"New"}"#)
        }
        let first = try write()
        #expect(first.status == 74, "\(first.err)")
        #expect(first.err.contains("malformed"), "\(first.err)")
        // The error says what the warning before it says: the read model was rebuilt already.
        #expect(first.err.contains("has been rebuilt from the log since: run the command again"), "\(first.err)")
        #expect(!first.err.contains("next command rebuilds"), "\(first.err)")
        let kept = try setAside(cli)
        #expect(kept.count == 1 && kept.first?.contains(".damaged.") == true, "\(kept)")

        let second = try write()
        #expect(second.status == 0, "\(second.err)")
        #expect(try titles(cli).titles.contains(command == "undo" ? "Episode 3" : "New"))
        #expect(try cli.run("log", "verify").status == 0)
    }

    @Test("a write whose projection meets a broken page is saved; the read model is set aside and rebuilt with it, and the warning says so")
    func brokenPageWhileProjecting() throws {
        // Given a library whose search index has a broken page that only a projection reads
        let cli = try library()
        try breakRootPage(cli, of: "search_documents", in: "search")

        // When an episode is retitled
        let run = try cli.run("episode", "retitle", "Show/3", "Renamed")

        // Then the change was saved and reported done, and the warning says the read models were rebuilt
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("Renamed"), "\(run.out)")
        #expect(run.err.contains("the commands were saved; the read models, found damaged as they were updated, were rebuilt"), "\(run.err)")
        #expect(!run.err.contains("next command"), "\(run.err)")
        let kept = try setAside(cli)
        #expect(kept.count == 1 && kept.first?.contains(".damaged.") == true, "\(kept)")
        // And the rebuilt read models hold it, quietly, as the log does
        let after = try titles(cli)
        #expect(after.titles.contains("Renamed") && after.err.isEmpty, "\(after.err)")
        #expect(try cli.run("log", "verify").status == 0)
    }

    @Test("a rebuild of everything never needs the old read model")
    func rebuildOverGarbage() throws {
        let cli = try library()
        let generation = try LibraryFiles.liveGeneration(cli.library)
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: generation))
        try? FileManager.default.removeItem(atPath: generation + "-wal")
        let run = try cli.run("projections", "rebuild", "--all")
        #expect(run.status == 0, "\(run.err)")
        #expect(try titles(cli).titles.count == 30)
    }

    @Test("log verify runs SQLite's integrity check: a broken page is damage (74), set aside for the next command")
    func verifyFindsBrokenPage() throws {
        let cli = try library()
        try breakRootPage(cli)
        let run = try cli.run("log", "verify", "--json")
        #expect(run.status == 74)
        let report = try run.json() as? [String: Any]
        #expect(report?["clean"] as? Bool == false)
        #expect((report?["readModelProblems"] as? [String])?.first?.contains("malformed") == true, "\(run.out)")
        let kept = try #require(report?["readModelSetAside"] as? String)
        #expect(kept.hasSuffix(".damaged.sqlite") && FileManager.default.fileExists(atPath: kept))
        // The next command rebuilds; verify is clean again.
        #expect(try titles(cli).titles.count == 30)
        #expect(try cli.run("log", "verify").status == 0)
    }

    @Test("a log restored from an older copy: writes are refused until the loss is accepted, and the stale read model is kept aside")
    func logRestoredFromOlderCopy() throws {
        let cli = try library(episodes: 3)
        let backup = cli.folder + "/log-backup"
        try FileManager.default.copyItem(atPath: cli.library + "/log", toPath: backup)
        try cli.must("episode", "create", "Show", "Lost with the restore")
        try cli.must("episode", "create", "Show", "Also lost")

        try FileManager.default.removeItem(atPath: cli.library + "/log")
        try FileManager.default.copyItem(atPath: backup, toPath: cli.library + "/log")
        for name in try FileManager.default.contentsOfDirectory(atPath: cli.library + "/index") {
            try FileManager.default.removeItem(atPath: cli.library + "/index/" + name)
        }
        // A reader answers from the log, and leaves the read model ahead of it as it is: it is the
        // evidence that the log once went further.
        let live = try LibraryFiles.liveGeneration(cli.library)
        let checkpoints = "SELECT name, checkpoint, event_identity FROM projections ORDER BY name"
        let before = try sqlite(live, checkpoints)
        let temporary = cli.folder + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        let read = try titles(cli, environment: ["TMPDIR": temporary])
        #expect(read.titles == ["Episode 1", "Episode 2", "Episode 3"])
        // The replay's folder goes when the command ends.
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
        #expect(read.err.contains(#""kind":"temporary""#) && read.err.contains("beyond the log's head"), "\(read.err)")
        #expect(read.err.contains("`episodic log repair` says how to mend it"), "\(read.err)")
        #expect(try LibraryFiles.liveGeneration(cli.library) == live)
        #expect(try sqlite(live, checkpoints) == before)

        // A write is refused, naming what was lost and what showed it; nothing changes.
        let refused = try cli.run("episode", "create", "Show", "After the restore")
        #expect(refused.status == 74)
        #expect(refused.err.contains("positions 5 to 6") && refused.err.contains("--accept-loss"), "\(refused.err)")
        #expect(try LibraryFiles.liveGeneration(cli.library) == live)
        #expect(try cli.run("projections", "rebuild", "--all").status == 74)

        // Accepted on purpose, the loss is in the log, the stale read model is kept, and writes go on.
        let accepted = try cli.run("log", "repair", "--accept-loss", "--json")
        #expect(accepted.status == 0, "\(accepted.err)")
        let record = try #require((try accepted.json() as? [String: Any])?["accepted"] as? [String: Any])
        #expect(record["lostFrom"] as? Int == 5 && record["lostThrough"] as? Int == 6)
        #expect((record["readModelsKept"] as? String)?.contains(".superseded.") == true)
        #expect(try cli.run("episode", "create", "Show", "After the restore").status == 0)
        let after = try titles(cli)
        #expect(after.titles == ["Episode 1", "Episode 2", "Episode 3", "After the restore"])
        #expect(try setAside(cli).contains { $0.contains(".superseded.") })
        #expect(try cli.list("projections", "status").allSatisfy { $0["current"] as? Bool == true })
        #expect(try cli.run("log", "verify").status == 0)
    }

    @Test("a log replaced by another of the same length: the read model standing on other events is evidence, kept")
    func logReplacedSameLength() throws {
        let cli = try library(episodes: 3)
        let backup = cli.folder + "/log-backup"
        try FileManager.default.copyItem(atPath: cli.library + "/log", toPath: backup)
        let podcast = try #require(try cli.list("podcast", "list").first?["id"] as? String)
        try cli.must("episode", "create", "Show", "Lost with the restore")

        // The whole log put back, head record included: only the read models show what it held.
        try FileManager.default.removeItem(atPath: cli.library + "/log")
        try FileManager.default.copyItem(atPath: backup, toPath: cli.library + "/log")
        try FileManager.default.removeItem(atPath: cli.library + "/HEAD")
        for name in try FileManager.default.contentsOfDirectory(atPath: cli.library + "/index") {
            try FileManager.default.removeItem(atPath: cli.library + "/index/" + name)
        }
        // Another event at the position the read model had read.
        try LibraryFiles.appendUnprojectedRename(library: cli.library, podcast: podcast, to: "Renamed")
        let run = try cli.run("episode", "list", podcast, "--json")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("is not the one it had read there"), "\(run.err)")
        let listed = try run.json() as? [[String: Any]] ?? []
        #expect(Set(listed.compactMap { $0["title"] as? String }) == ["Episode 1", "Episode 2", "Episode 3"])
        #expect(try cli.list("podcast", "list").first?["name"] as? String == "Renamed")

        let refused = try cli.run("episode", "create", podcast, "After")
        #expect(refused.status == 74)
        #expect(refused.err.contains("position 5 holds another commit") && refused.err.contains("the read models"), "\(refused.err)")
        #expect(try cli.run("log", "repair", "--accept-loss").status == 0)
        #expect(try setAside(cli).contains { $0.contains(".superseded.") })
        #expect(try cli.run("episode", "create", podcast, "After").status == 0)
    }
}
