import Foundation
import Testing

/// The log's promises, held on every path a user takes: a commit edited anywhere, the last commits
/// removed, or the last commit changed, is found by `log verify` every time and refused by every write,
/// rebuild, compaction and backup, until the library is restored or the loss accepted.
@Suite("The log's promises, kept by every command")
struct LogPromisesCLITests {
    /// A podcast and four episodes, one command a frame, in one segment.
    func library() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        for title in ["Dusk", "Dawn", "Noon", "Midnight"] { try cli.must("episode", "create", "Night Shift", title) }
        return cli
    }

    var segment: (CLI) -> String { { $0.library + "/log/00000001.seg" } }

    func titles(_ cli: CLI) throws -> [String] {
        try cli.list("episode", "list", "Night Shift").compactMap { $0["title"] as? String }
    }

    @Test("a commit edited in the middle (valid LZ4, broken chain) is refused by writes, rebuilds, compaction and backups")
    func editedMiddleCommit() throws {
        let cli = try library()
        try SegmentEdits.replace(Array(#""title":"Dawn""#.utf8), with: Array(#""title":"Forged""#.utf8), inFrame: .number(2), of: segment(cli))
        let before = try LibraryFiles.snapshot(cli.library + "/log")

        let verify = try cli.run("log", "verify")
        #expect(verify.status == 74)
        #expect(verify.out.contains("the chain breaks at the commit at position 4"), "\(verify.out)")
        #expect(!verify.out.contains("every commit from position 1 names the hash"), "\(verify.out)")

        for arguments in [
            ["episode", "create", "Night Shift", "Later"], ["projections", "rebuild", "--all"], ["log", "compact"],
            ["backup", cli.folder + "/night-shift.tar"],
        ] {
            let run = try cli.run(arguments)
            #expect(run.status == 74, "\(arguments): \(run.err)")
            #expect(run.err.contains("position 4"), "\(arguments): \(run.err)")
        }
        #expect(try LibraryFiles.snapshot(cli.library + "/log") == before)
        #expect(!FileManager.default.fileExists(atPath: cli.folder + "/night-shift.tar"))
        // The read models never took the forged title in.
        #expect(try titles(cli).contains("Dawn") && !(try titles(cli)).contains("Forged"))

        // Backed up as it is on purpose, the archive says so, and does not restore.
        let damaged = try cli.run("backup", cli.folder + "/damaged.tar", "--damaged", "--json")
        #expect(damaged.status == 0, "\(damaged.err)")
        #expect(((try damaged.json() as? [String: Any])?["damage"] as? [String])?.first?.contains("position 4") == true)
        let restored = try cli.run(["restore", cli.folder + "/damaged.tar", "--library", cli.folder + "/restored"])
        #expect(restored.status == 74, "\(restored.err)")
        #expect(restored.err.contains("--damaged"), "\(restored.err)")
        #expect(!FileManager.default.fileExists(atPath: cli.folder + "/restored"))
    }

    @Test("the last commit removed at a frame boundary: found by verify, refused by writes, given up only on purpose")
    func removedLastCommit() throws {
        let cli = try library()
        try SegmentEdits.removeLastFrame(of: segment(cli))

        let verify = try cli.run("log", "verify", "--json")
        #expect(verify.status == 74)
        let problems = (try verify.json() as? [String: Any])?["logProblems"] as? [String] ?? []
        #expect(problems.contains { $0.contains("position 5 is missing") }, "\(problems)")

        let refused = try cli.run("episode", "create", "Night Shift", "Later")
        #expect(refused.status == 74)
        #expect(refused.err.contains("lost acknowledged commits") && refused.err.contains("--accept-loss"), "\(refused.err)")

        try cli.must("log", "repair", "--accept-loss", "--actor", "mara")
        let created = try cli.object("episode", "create", "Night Shift", "Later")
        #expect((created["positions"] as? [String: Int])?["first"] == 6, "the acceptance took position 5")
        #expect(try cli.run("log", "verify").status == 0)
        #expect(try cli.must("log").out.contains("accepted the loss of position 5"))
    }

    @Test("an edited last commit is reported by every verify, and never rebuilt over")
    func editedLastCommit() throws {
        let cli = try library()
        try SegmentEdits.replace(Array(#""title":"Midnight""#.utf8), with: Array(#""title":"Forged""#.utf8), inFrame: .last, of: segment(cli))
        for attempt in 1...2 {
            let verify = try cli.run("log", "verify")
            #expect(verify.status == 74, "attempt \(attempt)")
            #expect(verify.out.contains("position 5 holds another commit than the one acknowledged there"), "\(verify.out)")
        }
        #expect(try cli.run("episode", "create", "Night Shift", "Later").status == 74)
        #expect(try cli.run("projections", "rebuild", "--all").status == 74)
        // A reader is not served the changed commit either.
        let listed = try cli.run("episode", "list", "Night Shift")
        #expect(listed.status == 74 && !listed.out.contains("Forged"), "\(listed.out)\(listed.err)")
    }

    @Test("restore refuses an archive whose log ends before the head its backup recorded")
    func restoreChecksTheRecordedHead() throws {
        let cli = try library()
        let archive = cli.folder + "/night-shift.tar"
        try cli.must("backup", archive)
        // The archive's last commit removed, the tar otherwise as written.
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", """
            import io, sys, tarfile
            src, dst = sys.argv[1], sys.argv[2]
            with tarfile.open(src) as tin, tarfile.open(dst, "w", format=tarfile.USTAR_FORMAT) as tout:
                for member in tin.getmembers():
                    data = tin.extractfile(member).read() if member.isfile() else None
                    if member.name == "log/00000001.seg":
                        at, last = 40, 40
                        while at < len(data):
                            last = at
                            flags = data[at + 4]; at += 7 + (8 if flags & 8 else 0)
                            while True:
                                size = int.from_bytes(data[at:at + 4], "little") & 0x7FFFFFFF; at += 4
                                if size == 0: break
                                at += size + (4 if flags & 0x10 else 0)
                            at += 4 if flags & 4 else 0
                        data = data[:last]
                        member.size = len(data)
                    tout.addfile(member, io.BytesIO(data) if data is not None else None)
            """, archive, cli.folder + "/cut.tar"]
        try python.run()
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)

        let run = try cli.run(["restore", cli.folder + "/cut.tar", "--library", cli.folder + "/restored"])
        #expect(run.status == 74, "\(run.err)")
        #expect(run.err.contains("position 5 is missing"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: cli.folder + "/restored"))
        // The archive as written restores.
        #expect(try cli.run(["restore", archive, "--library", cli.folder + "/whole"]).status == 0)
    }
}
