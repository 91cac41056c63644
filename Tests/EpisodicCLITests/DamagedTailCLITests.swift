import Crypto
import Foundation
import Testing

/// What the CLI does with a log that ends in bytes that are not a whole commit: readers change nothing,
/// the next write command sets unacknowledged bytes aside and says so, and acknowledged ones are never cut.
@Suite("A damaged end of the log, from the command line")
struct DamagedTailCLITests {
    /// A library of five events: a podcast, two episodes, a transcript and its subtitles (two blobs).
    func library() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        try cli.must("episode", "create", "Night Shift", "Dusk")
        try cli.must("episode", "create", "Night Shift", "Dawn")
        try cli.must("transcript", "import", "Night Shift/1", Fixtures.path("zencastr-excerpt.txt"))
        try cli.must("transcript", "convert", "Night Shift/1")
        return cli
    }

    var segment: (CLI) -> String { { $0.library + "/log/00000001.seg" } }

    /// The SHA-256 of every file under log/, blobs/ and quarantine/, by path.
    func fingerprint(_ cli: CLI) throws -> [String: String] {
        var files: [String: String] = [:]
        for folder in ["log", "blobs", "quarantine"] {
            let root = cli.library + "/" + folder
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            for case let relative as String in walker {
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder)
                if isFolder.boolValue { continue }
                let bytes = try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative))
                files[folder + "/" + relative] = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
            }
        }
        return files
    }

    func append(_ bytes: [UInt8], to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: bytes)
        try handle.close()
    }

    /// The commands that only read, each of which must leave every byte as it was.
    static let readers: [[String]] = [
        ["podcast", "list"], ["episode", "list", "Night Shift"], ["episode", "show", "Night Shift/1"],
        ["search", "welcome"], ["history", "Night Shift/1"], ["show", "Night Shift/1"], ["log"], ["log", "verify"],
        ["projections", "status"], ["transcript", "export", "Night Shift/1"],
    ]

    /// Three kinds of damage at the end of the log.
    enum Damage: String, CaseIterable {
        /// A frame's first bytes: a command killed while writing it (nothing acknowledged it).
        case tornFrame
        /// One bit flipped in the last, acknowledged frame (the stream index covers it).
        case flippedAcknowledgedFrame
        /// A new segment whose header was cut short.
        case tornSegmentHeader
    }

    func damage(_ cli: CLI, _ damage: Damage) throws -> [UInt8] {
        switch damage {
        case .tornFrame:
            // An LZ4 frame header and part of a block: what a pwrite cut short leaves.
            let torn: [UInt8] = [0x04, 0x22, 0x4D, 0x18, 0x64, 0x40, 0xA7, 0x10, 0x00, 0x00, 0x00] + Array("{\"position\":6".utf8)
            try append(torn, to: segment(cli))
            return torn
        case .flippedAcknowledgedFrame:
            let path = segment(cli)
            var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
            bytes[bytes.count - 6] ^= 0x10  // the content checksum of the last frame
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return []
        case .tornSegmentHeader:
            let torn: [UInt8] = [0x50, 0x2A, 0x4D, 0x18, 0x20, 0x00, 0x00, 0x00, 0x45, 0x50, 0x49]
            try Data(torn).write(to: URL(fileURLWithPath: cli.library + "/log/00000002.seg"))
            return torn
        }
    }

    @Test("a command that only reads changes no byte of the log or the blobs, whatever the end of the log holds", arguments: Damage.allCases)
    func readersChangeNothing(damage kind: Damage) throws {
        let cli = try library()
        _ = try damage(cli, kind)
        let before = try fingerprint(cli)
        for arguments in Self.readers {
            let run = try cli.run(arguments)
            switch (kind, arguments) {
            case (_, ["log", "verify"]):
                #expect(run.status == (kind == .flippedAcknowledgedFrame ? 74 : 0), "\(arguments): \(run.err)")
            case (.flippedAcknowledgedFrame, ["transcript", "export", "Night Shift/1"]):
                // The damaged commit is the conversion: as far as the log can be read, there are no subtitles.
                #expect(run.status == 65 && run.err.contains("no subtitles yet"), "\(arguments): \(run.err)")
            default:
                #expect(run.status == 0, "\(arguments): \(run.err)")
            }
            if kind == .flippedAcknowledgedFrame, arguments.first != "log" {
                // The answers come from the log as far as it can be read, and say why.
                #expect(run.err.contains("the log can be read only up to position 4"), "\(arguments): \(run.err)")
                #expect(run.err.contains("`episodic log repair` says how to mend it"), "\(arguments): \(run.err)")
            }
            #expect(try fingerprint(cli) == before, "`episodic \(arguments.joined(separator: " "))` changed the library (\(kind))")
        }
    }

    @Test("the next write command sets a torn commit aside in quarantine/ and says so, on stderr and in --json")
    func tornTailSetAside() throws {
        let cli = try library()
        let torn = try damage(cli, .tornFrame)
        let segmentSize = try FileManager.default.attributesOfItem(atPath: segment(cli))[.size] as! Int

        let run = try cli.run(["episode", "create", "Night Shift", "Noon", "--json"])

        #expect(run.status == 0, "\(run.err)")
        let record = try run.json() as! [String: Any]
        let recovered = try #require((record["recovered"] as? [[String: Any]])?.first)
        #expect(recovered["segment"] as? String == "00000001.seg")
        #expect(recovered["offset"] as? Int == segmentSize - torn.count)
        #expect(recovered["bytes"] as? Int == torn.count)
        #expect(recovered["lastAcknowledged"] as? Int == 5)
        let kept = try #require(recovered["quarantined"] as? String)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: cli.library + "/" + kept))) == torn)
        #expect(run.err.contains("warning: the log ended in a commit that was never acknowledged"))
        #expect(run.err.contains("set aside \(torn.count) bytes") && run.err.contains(kept))
        // The new episode took position 6, where the torn commit had begun.
        #expect((record["positions"] as? [String: Any])?["first"] as? Int == 6)
        #expect(try cli.run(["log", "verify"]).status == 0)
        // Said once: the next command has nothing to report.
        #expect(!(try cli.run(["episode", "create", "Night Shift", "Dusk 2"]).err.contains("warning")))
    }

    @Test("a damaged commit that the index shows was acknowledged is never cut: writes exit 74, nothing changes")
    func acknowledgedTailRefused() throws {
        let cli = try library()
        _ = try damage(cli, .flippedAcknowledgedFrame)
        let before = try fingerprint(cli)

        let run = try cli.run(["episode", "create", "Night Shift", "Noon", "--json"])

        #expect(run.status == 74)
        // stderr holds one JSON object a line: the read models' warning, then the error.
        let lines = try run.err.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect((lines.last??["error"] as? [String: Any])?["kind"] as? String == "damaged")
        #expect(run.err.contains("00000001.seg at byte"))
        #expect(run.err.contains("was acknowledged"))
        #expect(run.err.contains("`episodic log repair --accept-loss` goes on without what was lost"))
        #expect(try fingerprint(cli) == before)
        #expect(!FileManager.default.fileExists(atPath: cli.library + "/quarantine"))
    }

    @Test("log repair sets aside a torn tail; it gives up an acknowledged one only with --accept-loss, which the log records")
    func repair() throws {
        let cli = try library()
        #expect(try cli.must("log", "repair").out.contains("The log ends cleanly at position 5; nothing to repair."))

        _ = try damage(cli, .flippedAcknowledgedFrame)
        let before = try fingerprint(cli)
        let refused = try cli.run(["log", "repair"])
        #expect(refused.status == 74)
        #expect(refused.err.contains("--accept-loss"))
        #expect(try fingerprint(cli) == before)

        let run = try cli.run(["log", "repair", "--accept-loss", "--actor", "mara", "--json"])
        #expect(run.status == 0, "\(run.err)")
        let record = try run.json() as! [String: Any]
        // The acceptance took position 5, where the damaged commit had been.
        #expect(record["head"] as? Int == 5)
        let accepted = try #require(record["accepted"] as? [String: Any])
        #expect(accepted["position"] as? Int == 5)
        #expect(accepted["lostFrom"] as? Int == 5 && accepted["lostThrough"] as? Int == 5)
        let recovered = try #require((record["recovered"] as? [[String: Any]])?.first)
        #expect((recovered["discardedAcknowledged"] as? String)?.contains("position 5 was acknowledged") == true)
        #expect(run.err.contains("warning: discarded"))
        // The log says who gave what up.
        let logged = try cli.must("log", "-n", "1").out
        #expect(logged.contains("mara") && logged.contains("LossAccepted") && logged.contains("accepted the loss of position 5"), "\(logged)")
        // Nothing more to accept.
        #expect(try cli.must("log", "repair", "--accept-loss").out.contains("Nothing was lost"))
        // The read models were rebuilt from what the log holds now: the subtitles are gone, the rest is there.
        #expect(try cli.must("episode", "list", "Night Shift").out.contains("Dawn"))
        #expect(try cli.run(["log", "verify"]).status == 0)
        #expect(try cli.run(["transcript", "convert", "Night Shift/1"]).status == 0)
    }

    @Test("log verify tells a torn tail (exit 0, a note) from damage; and reports a log too damaged to open")
    func verifyReports() throws {
        let cli = try library()
        _ = try damage(cli, .tornFrame)
        let torn = try cli.run(["log", "verify", "--json"])
        #expect(torn.status == 0, "\(torn.err)")
        let record = try torn.json() as! [String: Any]
        #expect((record["unacknowledgedTail"] as? [String: Any])?["segment"] as? String == "00000001.seg")
        #expect(record["chainStart"] as? Int == 1)
        #expect((record["headHash"] as? String)?.count == 64)

        // A frame in the middle cut out, and no index to open by: the log cannot be opened, yet verify
        // reports every problem it finds, as a report, not as the open's first error.
        try cli.must("log", "repair")
        let path = segment(cli)
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let offsets = try frameStarts(bytes)
        bytes.removeSubrange(Int(offsets[1])..<Int(offsets[2]))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: cli.library + "/index")
        let damaged = try cli.run(["log", "verify"])
        #expect(damaged.status == 74)
        #expect(damaged.out.contains("found position 3 where 2 should be"), "\(damaged.out)")
        #expect(damaged.out.contains("the chain breaks at the commit at position 3"), "\(damaged.out)")
    }

    /// Where each LZ4 frame of a segment starts, by its magic and the declared sizes of its blocks.
    func frameStarts(_ bytes: [UInt8]) throws -> [UInt64] {
        var starts: [UInt64] = []
        var at = 40
        func word(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24 }
        while at + 7 <= bytes.count {
            starts.append(UInt64(at))
            let flags = bytes[at + 4]
            var next = at + 6 + (flags & 0b1000 != 0 ? 8 : 0) + 1
            while true {
                let size = word(next) & 0x7FFF_FFFF
                next += 4
                if size == 0 { break }
                next += size
            }
            at = next + (flags & 0b100 != 0 ? 4 : 0)
        }
        return starts
    }
}
