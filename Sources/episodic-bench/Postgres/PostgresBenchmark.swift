import ArgumentParser
import CoreValues
import Episodic
import EventLog
import Foundation
import PostgresLog
import PostgresNIO
import TestSupport

/// `episodic-bench postgres`: a shared library on PostgreSQL. The server's own fsync rate, for scale;
/// the shared log's appends with 1, 4 and 16 concurrent clients, one and ten events per commit, each
/// run then checked for holes; a push and a clone of a generated library; and one CLI write command on
/// the shared library against the same command on a library of one's own, alternating, in one run.
struct PostgresBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postgres", abstract: "Measures a shared library on PostgreSQL: appends, catch-up, one CLI command.")

    @Option(help: "A server to measure (a PostgreSQL URL). (default: a temporary server of this run's own, fsync on)")
    var url: String?

    @Option(help: "A folder to work in. (default: ./.bench/postgres-<pid>; an existing one needs --keep)")
    var library: String?

    @Option(help: "Seconds each append configuration runs.")
    var seconds = 3.0

    @Option(help: "Events in the library pushed and cloned.")
    var events = 100_000

    @Option(help: "Timed CLI invocations on each library, alternating.")
    var runs = 40

    @Flag(help: "Keep the folder afterwards; a later run with the same --library reuses its generated library.")
    var keep = false

    @Flag(help: "Also print the figures as one JSON object, alone on stdout (the readable lines go to stderr).")
    var json = false

    func validate() throws {
        guard seconds > 0, events >= 1_000, runs >= 10 else {
            throw ValidationError("--seconds must be positive, --events at least 1,000 and --runs at least 10.")
        }
    }

    func run() throws {
        let binary = try Spawn.episodic()
        let folder = try ProjectionsFolder.open(library, keep: keep)
        defer { if !keep { folder.remove() } }
        let report = Report(jsonOutput: json)
        let server = try Self.server(url)
        report.line("server", server.description)
        if let fsync = server.fsyncRate() {
            report.line("pg_test_fsync", "\(fsync.grouped()) fdatasync/s of one 8 kB write (the server's disk, for scale)")
            report.value("fdatasyncPerSecond", fsync)
        }

        try appends(on: server, report: report)
        let (own, shared) = try pushAndClone(on: server, in: folder, report: report)
        var targets = [("own library", own), ("shared library", shared)]
        if let owned = server.owned, let bouncer = PgBouncer.start(in: owned.folder, serverFolder: owned.folder, serverPort: owned.port) {
            // The same library through the pooler: a second clone, whose folder names the pooler's URL.
            let pooledPath = folder.root + "/clone-pgbouncer"
            try? FileManager.default.removeItem(atPath: pooledPath)
            let location = try SharedLocation(url: bouncer.url, schema: Self.librarySchema)
            let seconds = try timed { _ = try Library.clone(location, into: pooledPath) }
            report.line("clone through PgBouncer", "\(seconds.grouped(decimals: 2)) s (transaction pooling)")
            targets.append(("shared, PgBouncer", shared.copy(at: pooledPath)))
        } else {
            report.line("PgBouncer", "not measured: not installed (apt-get install pgbouncer), or the server is not this run's")
        }
        try cli(binary, targets, report: report)
        report.finish()
    }

    // MARK: Appends

    private func appends(on server: BenchServer, report: Report) throws {
        for eventsPerCommit in [1, 10] {
            for clients in [1, 4, 16] {
                let schema = "bench_appends_\(clients)_\(eventsPerCommit)_\(getpid())"
                let session = try PostgresSession(server.endpoint)
                try PostgresSchema.prepare(schema, libraryID: LibraryID(), on: session)
                let commits = Tally()
                let deadline = ContinuousClock.now + .seconds(seconds)
                let started = ContinuousClock.now
                let group = DispatchGroup()
                for client in 0..<clients {
                    group.enter()
                    Thread.detachNewThread {
                        defer { group.leave() }
                        do {
                            let session = try PostgresSession(server.endpoint)
                            let stream = StreamID(rawValue: "bench-\(client)")!
                            var version = 0
                            while ContinuousClock.now < deadline {
                                let events = (0..<eventsPerCommit).map { _ in
                                    ProposedEvent(stream: stream, type: "Measured", json: #"{"client":\#(client)}"#)
                                }
                                let commit = Commit(
                                    events: events, expectations: [stream: ExpectedVersion(after: version)],
                                    commandID: CommandID(UUID()), actor: "bench", timestamp: .now)
                                _ = try PostgresAppend.appendAtHead(commit, schema: schema, on: session)
                                version += eventsPerCommit
                                commits.add(1)
                            }
                        } catch {
                            commits.fail("\(error)")
                        }
                    }
                }
                group.wait()
                let elapsed = (ContinuousClock.now - started).seconds
                if let failure = commits.failures.first { throw BenchFailure("an append failed: \(failure)") }
                // Every acknowledged event is there, at positions 1...n without a hole.
                let row = try session.query(
                    "SELECT count(*), coalesce(min(position), 0), coalesce(max(position), 0) FROM \(unescaped: schema).events"
                ).first!.decode((Int64, Int64, Int64).self)
                let expected = Int64(commits.count * eventsPerCommit)
                guard row.0 == expected, row.1 == 1, row.2 == expected else {
                    throw BenchFailure("the log of \(schema) holds \(row.0) events at \(row.1)...\(row.2), not 1...\(expected)")
                }
                try session.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"))
                let perSecond = Double(commits.count) / elapsed
                report.line(
                    "\(clients) client\(clients == 1 ? "" : "s"), \(eventsPerCommit) event\(eventsPerCommit == 1 ? "" : "s")/commit",
                    "\(perSecond.grouped()) commits/s, \((perSecond * Double(eventsPerCommit)).grouped()) events/s "
                        + "(\(commits.count.grouped()) commits in \(elapsed.grouped(decimals: 1)) s; no hole)"
                        + (clients == 16 && eventsPerCommit == 1 ? "; target ≥ 300 commits/s" : ""))
                report.value("commitsPerSecond_\(clients)clients_\(eventsPerCommit)events", perSecond)
            }
        }
    }

    // MARK: Push and clone

    /// Pushes a copy of a generated library (the one the `cli` benchmark uses), then clones it; returns
    /// the library of one's own and the clone, for the CLI's figures.
    private func pushAndClone(on server: BenchServer, in folder: ProjectionsFolder, report: Report) throws
        -> (own: CLITarget, shared: CLITarget)
    {
        let local = folder.root + "/local"
        let own = try CLITarget.prepare(events: events, at: local, label: "library", report: report)
        let pushedPath = folder.root + "/pushed", clonePath = folder.root + "/clone"
        for path in [pushedPath, clonePath] { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.copyItem(atPath: local, toPath: pushedPath)
        let location = try SharedLocation(url: server.url, schema: Self.librarySchema)

        let pushSeconds = try timed { _ = try Library(at: pushedPath).push(to: location) }
        report.line(
            "push", "\(own.events.grouped()) events in \(pushSeconds.grouped(decimals: 2)) s, "
                + "\((Double(own.events) / pushSeconds).grouped()) events/s (blobs included, hash checked)")
        report.value("pushSeconds", pushSeconds)

        // The log alone: an empty copy catching up, without read models.
        let copyPath = folder.root + "/copy"
        try? FileManager.default.removeItem(atPath: copyPath)
        let session = try PostgresSession(location.endpoint)
        let id = try SharedLog(session: session, schema: location.schema).head().library
        let copy = try EventLog.create(at: copyPath, id: id)
        let store = SharedStore(local: copy, endpoint: location.endpoint, schema: location.schema)
        let copySeconds = try timed { try store.withWriter(acknowledgedThrough: nil) { _ in } }
        let rate = Double(own.events) / copySeconds
        report.line(
            "catch-up, log only", "\(rate.grouped()) events/s (\(own.events.grouped()) events in "
                + "\(copySeconds.grouped(decimals: 2)) s; target ≥ 50,000 events/s)")
        report.value("catchUpEventsPerSecond", rate)
        try? FileManager.default.removeItem(atPath: copyPath)

        let cloneSeconds = try timed { _ = try Library.clone(location, into: clonePath) }
        report.line(
            "clone", "\(cloneSeconds.grouped(decimals: 2)) s for the whole clone of \(own.events.grouped()) events: "
                + "the log, then every read model built (target < 10 s)")
        report.value("cloneSeconds", cloneSeconds)
        try catchUpBehind(location, clonePath: clonePath, in: folder, binary: try Spawn.episodic(), report: report)
        // Timed commands write to a copy, so that a later run with --keep finds the generated library as it was.
        return (try own.workingCopy(at: folder.root + "/local.run"), own.copy(at: clonePath))
    }

    /// Events a machine is behind its teammates in the end-to-end catch-up.
    static let behindBy = 10_000

    /// A machine ``behindBy`` events behind its teammates, each event a command of its own retitling a
    /// different episode (so that the read models fold thousands of entities they hold already), runs
    /// one `episodic podcast list`: the whole catch-up, log and read models, as a user meets it.
    private func catchUpBehind(_ location: SharedLocation, clonePath: String, in folder: ProjectionsFolder, binary: String, report: Report) throws {
        // A clone of its own, not a copy of the teammate's folder: copied files are new files to the log,
        // which would check all of them again at the first write, as it never does on a machine in use.
        let behindPath = folder.root + "/behind"
        try? FileManager.default.removeItem(atPath: behindPath)
        _ = try Library.clone(location, into: behindPath)
        let teammate = try Library(at: clonePath)
        var episodes: [EpisodeID] = []
        for podcast in try teammate.podcasts() where episodes.count < Self.behindBy {
            episodes += try teammate.episodes(EpisodeQuery(podcast: podcast.id)).map(\.id)
        }
        guard !episodes.isEmpty else { throw BenchFailure("the generated library has no episode to retitle") }
        let submissions = (0..<Self.behindBy).map { i in
            Submission(.episode(.id(episodes[i % episodes.count]), .retitle("Caught up \(i)")))
        }
        let written = try teammate.submit(submissions, actor: "teammate")
        if let failure = written.results.first(where: { (try? $0.get()) == nil }) { throw BenchFailure("a teammate's retitle failed: \(failure)") }

        let measured = try Spawn.measure(binary, ["podcast", "list", "--library", behindPath, "--quiet"])
        guard measured.status == 0 else { throw BenchFailure("`episodic podcast list` on the machine behind exited \(measured.status)") }
        let rate = Double(Self.behindBy) / measured.seconds
        report.line(
            "catch-up, \(Self.behindBy.grouped()) behind", "\(rate.grouped()) events/s end to end (`episodic podcast list`: the log "
                + "and every read model, \(measured.seconds.grouped(decimals: 2)) s; target ≥ 50,000 events/s)")
        report.value("catchUpBehindEventsPerSecond", rate)
    }

    // MARK: One CLI command

    /// The schema the generated library is pushed to.
    static let librarySchema = "bench_library_\(getpid())"

    /// One write command's p50 on each target, the rounds alternating which goes first; the first
    /// target is the library of one's own that the others are compared with.
    private func cli(_ binary: String, _ targets: [(label: String, target: CLITarget)], report: Report) throws {
        var times = Array(repeating: [Double](), count: targets.count)
        for round in -3..<runs {  // three rounds to warm up, not counted
            let order = round % 2 == 0 ? Array(targets.indices) : targets.indices.reversed()
            for index in order {
                let seconds = try targets[index].target.retitle(with: binary, round: round)
                if round >= 0 { times[index].append(seconds * 1_000) }
            }
        }
        let own = times[0].median
        report.line("CLI write, \(targets[0].label)", "p50 \(own.grouped(decimals: 2)) ms (`episodic episode retitle`, \(runs) runs)")
        report.value("cliOwnP50Milliseconds", own)
        for (index, (label, _)) in targets.enumerated().dropFirst() {
            let p50 = times[index].median
            report.line(
                "CLI write, \(label)",
                "p50 \(p50.grouped(decimals: 2)) ms, \((p50 - own).grouped(decimals: 2)) ms above the own library's in the same run "
                    + "(target ≤ 10 ms above)")
            report.value("cliP50Milliseconds_\(label.filter { $0.isLetter })", p50)
        }
    }
}

/// The server measured: one this run started (fsync on), or one named by a URL.
private struct BenchServer {
    let url: String
    let endpoint: PostgresEndpoint
    /// The server's programs, when they are on this machine: `pg_test_fsync` is run from there.
    let binaries: String?
    let folder: String?
    let owned: PostgresServer?

    var description: String {
        owned != nil ? "a temporary PostgreSQL server of this run, fsync on, in \(folder!) (Unix socket)" : "\(endpoint)"
    }

    /// `pg_test_fsync`'s rate of one 8 kB write and fdatasync, in the server's folder (or the current one).
    func fsyncRate() -> Double? {
        guard let binaries else { return nil }
        let output = (folder ?? FileManager.default.currentDirectoryPath) + "/pg_test_fsync.txt"
        let testFile = (folder ?? FileManager.default.currentDirectoryPath) + "/pg_test_fsync.tmp"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let command = "'\(binaries)/pg_test_fsync' -s 2 -f '\(testFile)' > '\(output)' 2>&1"
        guard (try? Spawn.run("/bin/sh", ["-c", command])) == 0,
            let text = try? String(contentsOfFile: output, encoding: .utf8)
        else { return nil }
        // The first "fdatasync" line is the one-write comparison.
        guard let line = text.split(separator: "\n").first(where: { $0.contains("fdatasync") && $0.contains("ops/sec") }),
            let number = line.split(separator: " ").compactMap({ Double($0) }).first
        else { return nil }
        return number
    }
}

extension PostgresBenchmark {
    fileprivate static func server(_ url: String?) throws -> BenchServer {
        if let url {
            let binaries = ["17", "16", "15", "14"].map { "/usr/lib/postgresql/\($0)/bin" }
                .first { FileManager.default.isExecutableFile(atPath: $0 + "/pg_test_fsync") }
            return BenchServer(url: url, endpoint: try PostgresEndpoint(url: url), binaries: binaries, folder: nil, owned: nil)
        }
        guard let server = PostgresServer.start(fsync: true) else {
            throw BenchFailure("no PostgreSQL server could be started: \(PostgresServer.unavailable ?? "") (or give --url)")
        }
        return BenchServer(
            url: server.url, endpoint: try PostgresEndpoint(url: server.url), binaries: server.binaries, folder: server.folder,
            owned: server)
    }
}

/// A count that several threads add to, and what failed.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    private var failed: [String] = []
    func add(_ n: Int) { lock.withLock { total += n } }
    func fail(_ message: String) { lock.withLock { failed.append(message) } }
    var count: Int { lock.withLock { total } }
    var failures: [String] { lock.withLock { failed } }
}
