import EventLog
import Foundation
import Testing

/// `episodic backup` and `episodic restore`, as child processes, beside other `episodic` processes.
@Suite("Backup and restore")
struct BackupCLITests {
    /// A shell loop of `count` `episodic episode create` processes (numbers from `writer` × 1000 + 1), and a
    /// `transcript import` after every tenth, each its own process.
    static func writer(_ writer: Int, count: Int, cli: CLI) throws -> Process {
        let script = """
            for i in $(seq 1 \(count)); do
              n=$((\(writer) * 1000 + i))
              "$EPISODIC" episode create Busy "W\(writer) E$i" --number $n --actor writer\(writer) > /dev/null || exit 1
              if [ $((i % 10)) -eq 0 ]; then
                printf '00:00:01\\nAnn\\nTake %s.\\n' $n > transcript-\(writer).txt
                "$EPISODIC" transcript import "Busy/$n" transcript-\(writer).txt > /dev/null || exit 1
              fi
            done
            """
        return try cli.shell(script)
    }

    @Test("backups taken while two processes write each restore to a library that verifies, holds the log up to its head byte for byte, and lists what its log says")
    func backupDuringWrites() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Busy")
        let writers = try (0..<2).map { try Self.writer($0, count: 40, cli: cli) }
        var backups: [(archive: String, head: Int)] = []
        repeat {
            let archive = cli.folder + "/backup-\(backups.count).tar"
            let report = try cli.object("backup", archive)
            #expect(report["archive"] as? String == archive)
            backups.append((archive, report["head"] as! Int))
            usleep(150_000)
        } while writers.contains(where: \.isRunning) && backups.count < 8
        for writer in writers {
            writer.waitUntilExit()
            #expect(writer.terminationStatus == 0)
        }
        let final = try cli.head()
        #expect(final == 1 + 2 * 44)
        // At least one snapshot was taken in the middle of the writes.
        #expect(backups.contains { $0.head > 1 && $0.head < final }, "\(backups.map(\.head)) of \(final)")

        for (n, backup) in backups.enumerated() {
            let restored = cli.folder + "/restored-\(n)"
            let result = try cli.run(["restore", backup.archive, "--library", restored, "--json"])
            #expect(result.status == 0, "\(result.err)")
            let report = try result.json() as! [String: Any]
            #expect(report["head"] as? Int == backup.head && report["library"] as? String == restored)
            #expect(try cli.run(["log", "verify", "--library", restored]).status == 0)

            // The log, byte for byte: sealed segments equal, the last one a prefix of the source's.
            let names = try FileManager.default.contentsOfDirectory(atPath: restored + "/log").sorted()
            for name in names {
                let copy = try Data(contentsOf: URL(fileURLWithPath: restored + "/log/" + name))
                let source = try Data(contentsOf: URL(fileURLWithPath: cli.library + "/log/" + name))
                if name == names.last { #expect(source.starts(with: copy), "\(name)") } else { #expect(source == copy, "\(name)") }
            }
            let log = try EventLog(at: restored)
            #expect(Int(log.head.rawValue) == backup.head)

            // The read models list what the log says.
            var titles: [String] = []
            try log.read { event in
                if event.type == "EpisodeCreated", let payload = try JSONSerialization.jsonObject(with: Data(event.payload)) as? [String: Any] {
                    titles.append(payload["title"] as! String)
                }
            }
            let listed = try cli.list(["episode", "list", "Busy", "--library", restored]).map { $0["title"] as! String }
            #expect(listed.sorted() == titles.sorted())

            // `tar tf` lists exactly the library's own files: top-level, segments and blobs.
            #expect(try Self.tar(["tf", backup.archive]).split(separator: "\n").map(String.init).sorted() == Self.libraryFiles(in: restored))
        }
    }

    @Test("backup - writes the archive to standard output, through a pipe, and it restores; what it says goes to stderr")
    func toStandardOutput() throws {
        // Given a library with a transcript's blob
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        try cli.must("episode", "create", "Show", "One")
        try cli.must("transcript", "import", "Show/1", Fixtures.path("zencastr-excerpt.txt"))

        // When it is backed up to standard output, piped to another process that writes a file
        let process = try cli.shell(#""$EPISODIC" backup - --json 2> said.json | cat > piped.tar"#)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        // Then the archive restores into a library that verifies and holds the transcript
        let said = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cli.folder + "/said.json"))) as? [String: Any]
        #expect(said?["archive"] as? String == "standard output" && said?["head"] as? Int == 3, "\(String(describing: said))")
        let size = try FileManager.default.attributesOfItem(atPath: cli.folder + "/piped.tar")[.size] as? Int
        #expect(size == said?["bytes"] as? Int)
        try cli.must("restore", cli.folder + "/piped.tar", "--library", cli.folder + "/restored")
        let restored = try cli.run(["transcript", "show", "Show/1", "--library", cli.folder + "/restored"])
        #expect(restored.status == 0 && restored.out.contains("James"), "\(restored.err)")
        #expect(try cli.must("info").out.contains("to standard output"))
        // And --force, which has no file to replace there, is a usage error
        #expect(try cli.run("backup", "-", "--force").status == 64)
    }

    @Test("a backup is noted in the library's LAST-BACKUP file, outside the log, naming the archive by its absolute path")
    func noted() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Noted")
        let log = try LibraryFiles.segments(cli.library)
        #expect(!FileManager.default.fileExists(atPath: cli.library + "/LAST-BACKUP"))
        let started = Date()
        try cli.must("backup", "noted.tar")
        let data = try #require(FileManager.default.contents(atPath: cli.library + "/LAST-BACKUP"))
        let note = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(note["archive"] as? String == cli.folder + "/noted.tar")
        #expect(note["head"] as? Int == 1)
        #expect(note["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: cli.folder + "/noted.tar")[.size] as? Int))
        let time = try #require((note["time"] as? String).flatMap(Timestamp.init(text:)))
        #expect(abs(time.date.timeIntervalSince(started)) < 60)
        #expect(try LibraryFiles.segments(cli.library) == log)
        // The note is the library's, not the log's: a backup does not carry it.
        let listing = try Self.tar(["tf", cli.folder + "/noted.tar"]).split(separator: "\n")
        #expect(!listing.contains("LAST-BACKUP"), "\(listing)")
    }

    @Test("`tar xf` of a backup into an empty folder gives a library that verifies")
    func extractWithTar() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        try cli.must("episode", "create", "Show", "Pilot")
        try cli.must("transcript", "import", "Show/1", Fixtures.path(Fixtures.names[0]))
        let archive = cli.folder + "/backup.tar"
        let text = try cli.must("backup", archive).out
        #expect(text.contains("3 events") && text.contains("1 blob"))
        let folder = cli.folder + "/extracted"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        _ = try Self.tar(["xf", archive, "-C", folder])
        #expect(try cli.run(["log", "verify", "--library", folder]).status == 0)
        #expect(try cli.list(["episode", "list", "Show", "--library", folder]).map { $0["title"] as! String } == ["Pilot"])
    }

    @Test("refusals: an existing backup without --force, a restore into a non-empty folder, names out of the folder, links, unknown names, a cut or damaged archive; none leaves anything behind")
    func refusals() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        try cli.must("episode", "create", "Show", "Pilot")
        let archive = cli.folder + "/backup.tar"
        try cli.must("backup", archive)
        let good = try Data(contentsOf: URL(fileURLWithPath: archive))

        // The backup's file exists: refused unless --force, and kept as it was.
        let again = try cli.run("backup", archive)
        #expect(again.status == 65 && again.err.contains("already exists") && again.err.contains("--force"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: archive)) == good)
        try cli.must("episode", "create", "Show", "Second")
        #expect(try cli.object("backup", archive, "--force")["head"] as? Int == 3)
        try good.write(to: URL(fileURLWithPath: archive))

        // A folder that holds anything.
        let full = cli.folder + "/full"
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: full + "/notes.txt"))
        let intoFull = try cli.run("restore", archive, "--library", full)
        #expect(intoFull.status == 65 && intoFull.err.contains("cannot restore into"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: full) == ["notes.txt"])

        // Archives made with the system's tar from an extracted backup plus one bad entry.
        let source = cli.folder + "/source"
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: false)
        _ = try Self.tar(["xf", archive, "-C", source])
        try Data("x".utf8).write(to: URL(fileURLWithPath: cli.folder + "/x"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: source + "/read.sqlite"))
        try FileManager.default.createSymbolicLink(atPath: source + "/log/00000002.seg", withDestinationPath: "/etc/passwd")
        let files = ["FORMAT", "log/00000001.seg", "blobs"]
        let cases: [(name: String, tar: [String], status: Int32, says: String)] = [
            ("dotdot", ["-P", "../x"], 65, "\"../x\" reaches out of the library folder"),
            ("symlink", ["log/00000002.seg"], 65, "is a symbolic link"),
            ("wrong-name", ["read.sqlite"], 65, "is not an Episodic backup"),
        ]
        for bad in cases {
            let path = cli.folder + "/" + bad.name + ".tar"
            _ = try Self.tar(["cf", path, "-C", source] + files + bad.tar)
            try expectRefused(cli, path, status: bad.status, says: bad.says)
        }
        // Cut short in the middle of a segment; a flipped byte in a segment's data.
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: cli.folder + "/cut.tar"))
        try expectRefused(cli, cli.folder + "/cut.tar", status: 74, says: "cut short")
        var flipped = good
        flipped[flipped.startIndex + 512 * 2 + 100] ^= 0x01  // inside log/00000001.seg, after its header
        try flipped.write(to: URL(fileURLWithPath: cli.folder + "/flipped.tar"))
        try expectRefused(cli, cli.folder + "/flipped.tar", status: 74, says: "does not verify")
        try expectRefused(cli, cli.folder + "/missing.tar", status: 66, says: "no backup at")
    }

    /// A restore of `archive` fails with `status` and a message saying `says`, and leaves the folder as it was.
    private func expectRefused(_ cli: CLI, _ archive: String, status: Int32, says: String) throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: cli.folder).sorted()
        let result = try cli.run(["restore", archive, "--library", cli.folder + "/restored"])
        #expect(result.status == status, "\(archive): \(result.err)")
        #expect(result.err.contains(says), "\(archive): \(result.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.folder).sorted() == before, "\(archive)")
        let json = try cli.run(["restore", archive, "--library", cli.folder + "/restored", "--json"])
        let error = try JSONSerialization.jsonObject(with: Data(json.err.utf8)) as? [String: [String: String]]
        #expect(error?["error"]?["kind"] == (status == 74 ? "damaged" : status == 66 ? "missing" : "refused"))
    }

    /// Runs the system's tar; its output, or a failure.
    static func tar(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tar")
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CLI.Failed(arguments: ["tar"] + arguments, run: .init(
                status: process.terminationStatus, out: String(decoding: output, as: UTF8.self), err: String(decoding: errors, as: UTF8.self)))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The names a backup of `library` holds, as `tar tf` prints them: FORMAT (and ID), the log's and
    /// the blob store's folders and files; no derived state.
    static func libraryFiles(in library: String) throws -> [String] {
        var names = ["FORMAT", "ID", "HEAD"].filter { FileManager.default.fileExists(atPath: library + "/" + $0) }
        for folder in ["log", "blobs"] {
            names.append(folder + "/")
            for case let relative as String in FileManager.default.enumerator(atPath: library + "/" + folder)! {
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: library + "/" + folder + "/" + relative, isDirectory: &isFolder)
                names.append(folder + "/" + relative + (isFolder.boolValue ? "/" : ""))
            }
        }
        return names.sorted()
    }
}
