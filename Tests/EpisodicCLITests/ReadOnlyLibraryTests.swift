import Foundation
import TestSupport
import Testing

/// Commands that only read work on a library they cannot write: another user's, or one on a read-only
/// mount. They change no byte of it, and say when their answers are behind the log.
@Suite("Readers without write access")
struct ReadOnlyLibraryTests {
    /// Every command that only reads, naming the podcast by id (a rename may not be projected yet).
    static func readCommands(podcast: String) -> [[String]] {
        [
            ["podcast", "list"], ["episode", "list", podcast], ["episode", "show", podcast + "/1"], ["search", "welcome"],
            ["history", podcast], ["show", podcast], ["log"], ["log", "verify"], ["projections", "status"], ["info"],
        ]
    }

    /// A library with a podcast, two episodes and a transcript, made as this process's user.
    func library() throws -> (cli: CLI, podcast: String) {
        let cli = CLI()
        try cli.must("init")
        let podcast = try #require(try cli.object("podcast", "create", "Show")["created"] as? String)
        try cli.must("episode", "create", "Show", "Pilot")
        try cli.must("episode", "create", "Show", "Second")
        try cli.must("transcript", "import", "Show/1", Fixtures.path("zencastr-excerpt.txt"))
        return (cli, podcast)
    }

    /// The podcast's name as `podcast list --json` gives it, and what the command said on stderr.
    func listedName(_ cli: CLI, environment: [String: String] = [:]) throws -> (name: String?, err: String) {
        let run = try cli.run(["podcast", "list", "--json"], environment: environment)
        #expect(run.status == 0, "podcast list: \(run.err)")
        let podcasts = try run.json() as? [[String: Any]]
        return (podcasts?.first?["name"] as? String, run.err)
    }

    @Test("as another user, every read command answers and exits 0, says how far behind it is, and changes no byte")
    func anotherUser() throws {
        guard getuid() == 0 else {
            try Need.unmet("reading as another user needs root to switch users (setpriv); this process is uid \(getuid())")
            return
        }
        let (cli, podcast) = try library()
        // The test's folder is private to its maker: let the other user in, read-only.
        chmod(cli.folder, 0o755)
        let asNobody = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]

        cli.runAs = asNobody
        var before = try LibraryFiles.snapshot(cli.library)
        for command in Self.readCommands(podcast: podcast) {
            let run = try cli.run(command)
            #expect(run.status == 0, "\(command): \(run.err)")
            #expect(run.err.isEmpty, "\(command): \(run.err)")
        }
        #expect(try LibraryFiles.snapshot(cli.library) == before)

        // A command that appended and died before projecting: the reader cannot catch up, and says so.
        cli.runAs = []
        try LibraryFiles.appendUnprojectedRename(library: cli.library, podcast: podcast, to: "Renamed")
        cli.runAs = asNobody
        before = try LibraryFiles.snapshot(cli.library)
        let behind = try listedName(cli)
        #expect(behind.name == "Show")
        let warning = try JSONSerialization.jsonObject(with: Data(behind.err.utf8)) as? [String: [String: Any]]
        #expect(warning?["warning"]?["kind"] as? String == "behind")
        #expect(warning?["warning"]?["eventsBehind"] as? Int == 1)
        let text = try cli.run("podcast", "list")
        #expect(text.status == 0)
        #expect(text.err.hasPrefix("warning: these answers are 1 event behind the log"), "\(text.err)")
        #expect(try cli.must("log").out.contains("PodcastRenamed"))
        for command in Self.readCommands(podcast: podcast) {
            let run = try cli.run(command)
            #expect(run.status == 0, "\(command): \(run.err)")
        }
        #expect(try LibraryFiles.snapshot(cli.library) == before)

        // No read model at all, and none can be made in the library: the log is replayed elsewhere.
        cli.runAs = []
        try FileManager.default.removeItem(atPath: cli.library + "/read.sqlite")
        try FileManager.default.removeItem(atPath: cli.library + "/read")
        cli.runAs = asNobody
        before = try LibraryFiles.snapshot(cli.library)
        let replayed = try listedName(cli)
        #expect(replayed.name == "Renamed")
        #expect(replayed.err.contains(#""kind":"temporary""#), "\(replayed.err)")
        for command in Self.readCommands(podcast: podcast) {
            let run = try cli.run(command)
            #expect(run.status == 0, "\(command): \(run.err)")
        }
        #expect(try LibraryFiles.snapshot(cli.library) == before)

        // Its owner's next command makes the read models again, current.
        cli.runAs = []
        #expect(try listedName(cli).name == "Renamed")
        #expect(try cli.list("projections", "status").allSatisfy { $0["current"] as? Bool == true })
    }

    @Test("on a read-only mount, every read command answers and exits 0, with or without SQLite's WAL files")
    func readOnlyMount() throws {
        let (cli, podcast) = try library()
        let view = cli.folder + "/view"
        try FileManager.default.createDirectory(atPath: view, withIntermediateDirectories: false)
        if let refused = Mounts.readOnlyView(of: cli.library, at: view) {
            try Need.unmet("a read-only mount is refused here: \(refused)")
            return
        }
        defer { Mounts.unmount(view) }
        let onView = ["EPISODIC_LIBRARY": view]

        var before = try LibraryFiles.snapshot(cli.library)
        for command in Self.readCommands(podcast: podcast) {
            let run = try cli.run(command, environment: onView)
            #expect(run.status == 0, "\(command): \(run.err)")
            #expect(run.err.isEmpty, "\(command): \(run.err)")
        }
        // A backup only reads the library: it is made, and says that the library could not note it.
        let backup = try cli.run(["backup", cli.folder + "/view.tar"], environment: onView)
        #expect(backup.status == 0, "\(backup.err)")
        #expect(backup.err.hasPrefix("warning: the backup is whole, but the library could not note it"), "\(backup.err)")
        #expect(!FileManager.default.fileExists(atPath: cli.library + "/LAST-BACKUP"))
        let info = try #require(try cli.run(["info", "--json"], environment: onView).json() as? [String: Any])
        #expect(info["lastBackup"] == nil)
        #expect(try LibraryFiles.snapshot(cli.library) == before)

        // `sqlite3` folds the WAL into the file and removes it and its index when it closes the file;
        // nothing can make them on the mount, and nobody can write there, so the file is read as immutable.
        let sqlite = DamagedReadModelTests().sqlite
        for file in [try LibraryFiles.liveGeneration(cli.library)] + Array(try LibraryFiles.liveFiles(cli.library).values) {
            _ = try sqlite(file, "SELECT count(*) FROM sqlite_schema;")
            #expect(!FileManager.default.fileExists(atPath: file + "-wal") && !FileManager.default.fileExists(atPath: file + "-shm"), "\(file)")
        }
        try LibraryFiles.appendUnprojectedRename(library: cli.library, podcast: podcast, to: "Renamed")
        before = try LibraryFiles.snapshot(cli.library)
        let behind = try listedName(cli, environment: onView)
        #expect(behind.name == "Show")
        #expect(behind.err.contains(#""eventsBehind":1"#), "\(behind.err)")
        for command in Self.readCommands(podcast: podcast) {
            let run = try cli.run(command, environment: onView)
            #expect(run.status == 0, "\(command): \(run.err)")
        }
        #expect(try LibraryFiles.snapshot(cli.library) == before)

        // A command that writes is refused, clearly, and nothing changes.
        let write = try cli.run(["episode", "create", podcast, "Third"], environment: onView)
        #expect(write.status == 1)
        #expect(write.err.contains("Read-only file system"), "\(write.err)")
        #expect(try LibraryFiles.snapshot(cli.library) == before)
    }
}
