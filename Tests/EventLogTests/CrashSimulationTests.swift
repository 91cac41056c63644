import CoreValues
import Foundation
import Testing

@testable import EventLog

/// Power cuts and kills at every step of the write path, over ``SimulatedDisk``: after each, the library
/// reopens with every acknowledged commit, every blob those commits refer to, and a clean `verify`.
///
/// The checks look at what was acknowledged, not at how the writer recovered (cut, or set aside), so
/// they hold whatever the writer does with a torn tail.
@Suite("Crash simulation")
struct CrashSimulationTests {
    /// How many seeds each trial runs with: 1 in the suite; more (EPISODIC_CRASH_SEEDS=20) for a longer hunt.
    static let seeds = UInt64(ProcessInfo.processInfo.environment["EPISODIC_CRASH_SEEDS"] ?? "") ?? 1

    @Test("after a power cut at any operation, every acknowledged commit and blob is there", arguments: [7, 11] as [UInt64])
    func powerCut(plan seed: UInt64) throws {
        let plan = Plan(seed: seed)
        let total = try plan.operationCount()
        var trials = 0
        var problems: [String] = []
        for operation in 1...total + 1 {
            for seed in 1...Self.seeds {
                trials += 1
                let outcome = try plan.crash(at: operation, seed: seed)
                problems += outcome.problems.map { "plan \(plan.seed): power cut at operation \(operation) of \(total), seed \(seed): \($0)" }
            }
        }
        print("crash simulation, plan \(plan.seed): \(trials) power cuts over \(total) operations of \(plan.commitCount) commits; "
            + "problems: \(problems.count)")
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
    }

    @Test("group commit: after a power cut at any operation, every commit a sync acknowledged is there, and a failed sync takes back what it covered",
        arguments: [7, 11] as [UInt64], [Plan.Appending.unsynced, .together])
    func powerCutGrouped(plan seed: UInt64, appending: Plan.Appending) throws {
        let plan = Plan(seed: seed, appending: appending)
        let total = try plan.operationCount()
        var problems: [String] = []
        for operation in 1...total + 1 {
            let outcome = try plan.crash(at: operation, seed: 1)
            problems += outcome.problems.map { "\(appending) plan \(plan.seed): power cut at operation \(operation) of \(total): \($0)" }
        }
        print("crash simulation, \(appending) plan \(plan.seed): \(total + 1) power cuts over \(total) operations; problems: \(problems.count)")
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
    }

    /// A kill leaves the page cache: the next writer sees, and builds on, files and entries that were
    /// never synced. A power cut later must not take what that writer acknowledged.
    @Test("after a kill, a new writer, then a power cut, every acknowledged commit and blob is there")
    func killThenPowerCut() throws {
        let plan = Plan(seed: 13)
        let total = try plan.operationCount()
        var random = SplitMix64(seed: 5)
        var trials = 0
        var problems: [String] = []
        for kill in 1...total {
            // A cut somewhere after the kill, and one once everything was acknowledged.
            for seed in 1...Self.seeds {
                for cut in [kill + 1 + Int(random.next() % UInt64(total)), 2 * total + 1] {
                    trials += 1
                    let outcome = try plan.crash(at: cut, killedAt: kill, seed: seed)
                    problems += outcome.problems.map { "killed at operation \(kill), power cut at \(cut), seed \(seed): \($0)" }
                }
            }
        }
        print("crash simulation, plan \(plan.seed): \(trials) kills, each followed by a new writer and a power cut; problems: \(problems.count)")
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
    }

    /// The simulation is strict enough: take away any one sync of the write path and some crash loses
    /// an acknowledged commit or one of its blobs, whether commits come one by one or together.
    @Test(
        "without the sync of each file or folder of the write path, some power cut loses something acknowledged",
        arguments: SimulatedDisk.Sync.allCases, [Plan.Appending.synced, .together])
    func everySyncIsNeeded(ignoring sync: SimulatedDisk.Sync, appending: Plan.Appending) throws {
        let plan = Plan(seed: 7, appending: appending)
        let total = try plan.operationCount()
        var trials = 0
        var example: String?
        search: for operation in 1...total + 1 {
            for seed in 1...2 as ClosedRange<UInt64> {
                trials += 1
                if let problem = try plan.crash(at: operation, seed: seed, ignoring: sync).problems.first {
                    example = "power cut at operation \(operation), seed \(seed): " + problem.replacingOccurrences(of: "\n", with: " ")
                    break search
                }
            }
        }
        print("crash simulation without the sync of \(sync), commits \(appending): found a loss after \(trials) power cuts: \(example ?? "none")")
        #expect(example != nil, "every crash kept everything, though \(sync) was never synced")
    }
}

/// A fixed series of write sessions: commits of one to three events over a few streams, most storing
/// a blob first (as the facade does), in segments small enough that they roll every few commits.
struct Plan {
    struct PlannedCommit {
        let commit: Commit
        let blobs: [[UInt8]]
    }

    static let options = EventLog.Options(segmentSizeLimit: 900, lockTimeout: .seconds(5), indexMergeThreshold: 4)

    let seed: UInt64
    let sessions: [[PlannedCommit]]
    /// How a session gives the log its commits.
    enum Appending: CustomStringConvertible {
        /// Each synced, and acknowledged, as it is appended.
        case synced
        /// Each appended unsynced, and all synced once at the session's end (group commit), acknowledged
        /// only then.
        case unsynced
        /// Likewise, but all given to the log at once, which stores their blobs first, syncing each
        /// shard once for all of them.
        case together

        var description: String {
            switch self {
            case .synced: "synced"
            case .unsynced: "grouped"
            case .together: "appended together"
            }
        }
    }
    let appending: Appending
    var commitCount: Int { sessions.map(\.count).reduce(0, +) }

    init(seed: UInt64, commits: Int = 14, appending: Appending = .synced) {
        self.seed = seed
        self.appending = appending
        var random = SplitMix64(seed: seed)
        var stored: [[UInt8]] = []
        var sessions: [[PlannedCommit]] = []
        var current: [PlannedCommit] = []
        for i in 0..<commits {
            var blobs: [[UInt8]] = []
            if random.next() % 3 != 0 {
                if !stored.isEmpty && random.next() % 4 == 0 {
                    blobs.append(stored[Int(random.next() % UInt64(stored.count))])
                } else {
                    // Random bytes do not compress: blob files of one to three sectors.
                    let blob = (0..<(100 + Int(random.next() % 1200))).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    stored.append(blob)
                    blobs.append(blob)
                }
            }
            let refs = blobs.map { BlobStore.reference(for: $0) }
            let events = (0..<(1 + Int(random.next() % 3))).map { j in
                ProposedEvent(
                    stream: StreamID(rawValue: "stream-\(random.next() % 3)")!, type: "Happened",
                    json: #"{"commit":\#(i),"event":\#(j),"pad":"\#(String(repeating: "p", count: Int(random.next() % 300)))"}"#,
                    blobs: j == 0 ? refs : [])
            }
            // Ids from the seed too: a frame's size, and so every offset, depends on them.
            let id = UUID(uuid: withUnsafeBytes(of: (random.next(), random.next())) { raw in
                raw.load(as: uuid_t.self)
            })
            let commit = Commit(
                events: events, commandID: CommandID(id), actor: "crash-test",
                timestamp: Timestamp(rawValue: 1_790_000_000_000 + Int64(i))!)
            current.append(PlannedCommit(commit: commit, blobs: blobs))
            if random.next() % 2 == 0 || i == commits - 1 {
                sessions.append(current)
                current = []
            }
        }
        self.sessions = sessions
    }

    /// A commit that was acknowledged, at the positions the log gave it.
    struct Acknowledged {
        let planned: PlannedCommit
        let positions: ClosedRange<LogPosition>
    }

    /// Runs the plan from commit `from` on, in a library at `path`, until the end or until the layer stops.
    func run(at path: String, from first: Int = 0, acknowledged: inout [Acknowledged]) {
        let commits = sessions.enumerated().flatMap { session, commits in commits.map { (session, $0) } }
        guard first < commits.count else { return }
        do {
            let log = try EventLog.create(at: path, options: Self.options)
            for session in Dictionary(grouping: commits[first...], by: \.0).sorted(by: { $0.key < $1.key }) {
                try log.write { writer in
                    var unsynced: [Acknowledged] = []
                    let planned = session.value.map(\.1)
                    switch appending {
                    case .synced:
                        for planned in planned {
                            let result = try writer.append(planned.commit, blobs: planned.blobs, claims: [])
                            acknowledged.append(Acknowledged(planned: planned, positions: result.positions))
                        }
                    case .unsynced:
                        for planned in planned {
                            let result = try writer.appendUnsynced(planned.commit, blobs: planned.blobs, claims: [])
                            unsynced.append(Acknowledged(planned: planned, positions: result.positions))
                        }
                    case .together:
                        let results = try writer.appendUnsynced(planned.map { CommitToAppend($0.commit, blobs: $0.blobs, claims: []) })
                        unsynced = zip(planned, results).map { Acknowledged(planned: $0, positions: $1.positions) }
                    }
                    try writer.sync()
                    acknowledged += unsynced
                }
            }
        } catch {
            // The layer stopped: the process is gone.
        }
    }

    /// How many operations the whole plan takes.
    func operationCount() throws -> Int {
        let folder = TemporaryLibrary(inMemory: true)
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let disk = SimulatedDisk(root: folder.path, seed: 0)
        var acknowledged: [Acknowledged] = []
        FileSystemLayer.$current.withValue(disk) { run(at: folder.path, acknowledged: &acknowledged) }
        guard acknowledged.count == commitCount else { throw PlanFailed(reason: "only \(acknowledged.count) of \(commitCount) commits ran") }
        return disk.operations
    }

    struct PlanFailed: Error { let reason: String }

    /// Runs the plan over a simulated disk until a power cut at operation `operation` (after a kill at
    /// `killedAt`, when given, and a new writer going on), then checks the library the cut leaves.
    func crash(
        at operation: Int, killedAt kill: Int? = nil, seed: UInt64, ignoring sync: SimulatedDisk.Sync? = nil
    ) throws -> (acknowledged: Int, problems: [String]) {
        let folder = TemporaryLibrary(inMemory: true)
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let disk = SimulatedDisk(root: folder.path, seed: seed, ignoring: sync)
        var acknowledged: [Acknowledged] = []
        FileSystemLayer.$current.withValue(disk) {
            disk.stop(at: kill ?? operation)
            run(at: folder.path, acknowledged: &acknowledged)
            if kill != nil {
                disk.resume(stoppingAt: operation)
                run(at: folder.path, from: acknowledged.count, acknowledged: &acknowledged)
            }
        }
        let after = folder.folder + "/after"
        // Each trial draws differently: with one seed for all, a folder would make the same choice at every cut.
        var mix = SplitMix64(seed: seed ^ UInt64(operation) << 20 ^ UInt64(kill ?? 0) << 40)
        try disk.materialize(into: after, seed: mix.next())
        return (acknowledged.count, Self.problems(in: after, acknowledged: acknowledged))
    }

    /// What is wrong with the library at `path`, opened with the real file system and a writer, given
    /// what was acknowledged before the crash.
    static func problems(in path: String, acknowledged: [Acknowledged]) -> [String] {
        var problems: [String] = []
        do {
            if acknowledged.isEmpty && !FileManager.default.fileExists(atPath: path + "/FORMAT") {
                // Cut while the library was being made: making it again must work.
                _ = try EventLog.create(at: path, options: options)
            }
            let log = try EventLog(at: path, options: options)
            try log.write { _ in }
            problems += check(log, acknowledged: acknowledged)
            // The library goes on: one more commit with a blob, read back by a new instance.
            let blob = Array("after the crash \(acknowledged.count)".utf8)
            let ref = try log.write { writer in
                let ref = try log.blobs.put(blob)
                try writer.append(Commit(
                    events: [ProposedEvent(stream: "after", type: "Went", json: "{}", blobs: [ref])],
                    commandID: CommandID(UUID()), actor: "crash-test", timestamp: Timestamp(rawValue: 1_800_000_000_000)!))
                return ref
            }
            let reopened = try EventLog(at: path, options: options)
            if try reopened.events(in: "after").count != 1 || reopened.blobs.get(ref) != blob {
                problems.append("a commit after the crash did not read back")
            }
            problems += check(reopened, acknowledged: acknowledged)
        } catch {
            problems.append("the library cannot be used: \(error)")
        }
        return problems
    }

    private static func check(_ log: EventLog, acknowledged: [Acknowledged]) -> [String] {
        var problems: [String] = []
        do {
            let events = try log.events()
            for ack in acknowledged {
                let range = Int(ack.positions.lowerBound.rawValue)...Int(ack.positions.upperBound.rawValue)
                guard range.upperBound <= events.count else {
                    problems.append("acknowledged positions \(range) are gone (the log ends at \(events.count))")
                    continue
                }
                for (event, proposed) in zip(events[(range.lowerBound - 1)...(range.upperBound - 1)], ack.planned.commit.events) {
                    if event.payload != proposed.payload || event.stream != proposed.stream || event.commandID != ack.planned.commit.commandID {
                        problems.append("position \(event.position) does not hold what was acknowledged there")
                    }
                }
                for blob in ack.planned.blobs {
                    let ref = BlobStore.reference(for: blob)
                    do {
                        if try log.blobs.get(ref) != blob { problems.append("blob \(ref.sha256.prefix(8)) reads back wrong") }
                    } catch {
                        problems.append("blob \(ref.sha256.prefix(8)) of an acknowledged commit: \(error)")
                    }
                }
            }
            for stream in Set(events.map(\.stream)) {
                if try log.events(in: stream) != events.filter({ $0.stream == stream }) {
                    problems.append("stream \(stream) read through the index differs from the log")
                }
            }
            let report = try log.verify()
            if !report.isClean { problems.append("verify: \(report)") }
        } catch {
            problems.append("reading failed: \(error)")
        }
        return problems
    }
}
