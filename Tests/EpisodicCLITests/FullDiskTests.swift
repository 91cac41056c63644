import Foundation
import TestSupport
import Testing

/// A full disk, tried many times: on a small tmpfs filled to various levels, each kind of command, a
/// real `episodic` process, either succeeds or says the disk is full (exit 75); it is never killed by a
/// signal, loses nothing it acknowledged, and once the space is freed the library works with no
/// manual step.
@Suite("A full disk")
struct FullDiskTests {
    /// A kind of command, and whether it writes (then what it creates must survive).
    struct Kind {
        var name: String
        var arguments: [String]
        var input: String?
    }

    static let kinds: [Kind] = {
        let creates = { (count: Int, tag: String) in
            (1...count).map { #"{"command":"episode.create","podcast":"Show","title":"\#(tag) \#($0)"}"# }.joined(separator: "\n")
        }
        return [
            Kind(name: "episode create", arguments: ["episode", "create", "Show", "Created on a full disk", "--json"]),
            Kind(name: "submit --atomic", arguments: ["submit", "--atomic", "--json"], input: creates(40, "Atomic")),
            Kind(name: "submit", arguments: ["submit", "--json"], input: creates(8, "One by one")),
            Kind(name: "transcript import", arguments: ["transcript", "import", "Show/2", Fixtures.path("sample-transcript-hhmmss.txt"), "--json"]),
            Kind(name: "projections rebuild --all", arguments: ["projections", "rebuild", "--all"]),
            Kind(name: "episode list", arguments: ["episode", "list", "Show", "--json"]),
            Kind(name: "search", arguments: ["search", "welcome", "--json"]),
            Kind(name: "log verify", arguments: ["log", "verify"]),
        ]
    }()

    /// Kilobytes left free, from none to more than most commands need; EPISODIC_TRIALS_SCALE=N tries N
    /// times as many levels, for figures.
    static let leaves: [Int] = {
        let scale = max(1, ProcessInfo.processInfo.environment["EPISODIC_TRIALS_SCALE"].flatMap(Int.init) ?? 1)
        return (0..<(7 * scale)).map { Int((pow(2, Double($0) / Double(scale)) - 1) * 4) }
    }()

    @Test("every command on a filling disk exits 0 or 75, never by a signal; nothing acknowledged is lost; no library stays stuck")
    func trials() throws {
        guard getuid() == 0 else {
            try Need.unmet("mounting a small tmpfs needs root; this process is uid \(getuid())")
            return
        }
        let cli = CLI()
        let template = cli.folder + "/template"
        let episodes = (1...60).map { #"{"command":"episode.create","podcast":"Show","title":"Episode \#($0)"}"# }
        for (arguments, input) in [
            (["init"], nil), (["podcast", "create", "Show"], nil), (["submit"], episodes.joined(separator: "\n")),
            (["transcript", "import", "Show/1", Fixtures.path("zencastr-excerpt.txt")], nil),
        ] as [([String], String?)] {
            try cli.run(arguments, input: input, environment: ["EPISODIC_LIBRARY": template]).expectSuccess()
        }
        let disk = cli.folder + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        if let refused = Mounts.mount(["-t", "tmpfs", "-o", "size=3m", "tmpfs", disk]) {
            try Need.unmet("a tmpfs cannot be mounted here: \(refused)")
            return
        }
        defer { Mounts.unmount(disk) }
        let library = disk + "/library", filler = disk + "/filler"
        let onDisk = ["EPISODIC_LIBRARY": library]

        var trials = 0, full = 0, crashes: [String] = [], refusedBadly: [String] = [], lost: [String] = [], stuck: [String] = [], leftovers: [String] = []
        for kind in Self.kinds {
            for leave in Self.leaves {
                trials += 1
                let trial = "\(kind.name), \(leave) KB free"
                try? FileManager.default.removeItem(atPath: library)
                try? FileManager.default.removeItem(atPath: filler)
                try Self.copy(template, to: library)
                try Self.fill(filler, leaving: leave * 1024, on: disk)

                let run = try cli.run(kind.arguments, input: kind.input, environment: onDisk)
                if run.status == 75 { full += 1 }
                if run.signaled {
                    crashes.append("\(trial): killed by signal \(run.status)")
                } else if run.status != 0 && run.status != 75 {
                    refusedBadly.append("\(trial): exit \(run.status): \(run.err)")
                } else if run.status == 75 && !(run.err + run.out).contains("disk is full") {
                    // Under --json, a refused command of a script is reported by its result line, on stdout.
                    refusedBadly.append("\(trial): exit 75 without saying the disk is full: \(run.err)")
                }
                // A failed rebuild leaves no file of its own behind.
                let generations = LibraryFiles.readModelFiles(library)
                if generations != (try? LibraryFiles.liveGenerationFiles(library)) { leftovers.append("\(trial): \(generations.sorted())") }
                // What was acknowledged: the episodes each line of JSON says it created.
                let acknowledged = Set(run.out.split(separator: "\n").compactMap {
                    (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["created"] as? String
                })

                try FileManager.default.removeItem(atPath: filler)
                let list = try cli.run(["episode", "list", "Show", "--json"], environment: onDisk)
                let listed = Set(((try? list.json()) as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
                if !acknowledged.isSubset(of: listed) { lost.append("\(trial): \(acknowledged.subtracting(listed))") }
                let probe = try cli.run(["episode", "create", "Show", "After freeing space"], environment: onDisk)
                let verify = try cli.run(["log", "verify"], environment: onDisk)
                if list.status != 0 || probe.status != 0 || verify.status != 0 {
                    stuck.append("\(trial): list \(list.status) \(list.err), create \(probe.status) \(probe.err), verify \(verify.status) \(verify.out)")
                }
                let after = (try? FileManager.default.contentsOfDirectory(atPath: library + "/read"))?.filter { $0.hasSuffix(".sqlite") } ?? []
                if Set(after) != (try? LibraryFiles.liveGenerationFiles(library)) { leftovers.append("\(trial), after the next writer: \(after)") }
            }
        }
        print("full-disk trials: \(trials) trials (\(full) said the disk is full), \(crashes.count) crashes, \(stuck.count) libraries stuck after freeing space, "
            + "\(lost.count) lost acknowledgements, \(leftovers.count) leftover generations")
        #expect(crashes.isEmpty, "\(crashes)")
        #expect(refusedBadly.isEmpty, "\(refusedBadly)")
        #expect(lost.isEmpty, "\(lost)")
        #expect(stuck.isEmpty, "\(stuck)")
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    /// `cp -a`: the library as it is, its link included.
    static func copy(_ source: String, to target: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/cp")
        process.arguments = ["-a", source, target]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Writes zeros to `path` until the file system at `folder` has `leaving` bytes free (or none).
    static func fill(_ path: String, leaving: Int, on folder: String) throws {
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { throw CocoaError(.fileReadUnknown) }
        var left = max(0, Int(info.f_bavail) * Int(info.f_frsize) - leaving)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while left > 0 {
            let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, min(left, chunk.count)) }
            if written <= 0 { break }
            left -= written
        }
    }
}

extension CLI.Run {
    func expectSuccess() throws {
        guard status == 0 else { throw CLI.Failed(arguments: [], run: self) }
    }
}
