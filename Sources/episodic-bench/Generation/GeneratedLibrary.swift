import CoreValues
import EventLog
import Foundation
import PodcastDomain

/// A library written by the studio generator, or found from an earlier `--keep` run that asked for the
/// same plan (its description is written beside the library once generation has finished, so a run
/// that was cut short is never reused).
struct GeneratedLibrary {
    let path: String
    let events: Int
    let bigPodcast: PodcastID
    /// What it holds: shows, episodes, blobs.
    let contents: String
    /// Seconds spent generating, and of those writing the blobs; nil when the library was reused.
    let seconds: Double?
    var blobSeconds: Double? = nil

    /// Reuses the library at `path` if its marker matches `plan`, else (re)writes it.
    static func prepare(_ plan: LibraryPlan, at path: String, label: String, report: Report) throws -> GeneratedLibrary {
        if let found = try reuse(plan, at: path) {
            report.line(label, "reused \(path): \(found.events.grouped()) events (generation skipped)")
            report.line("  holding", found.contents)
            return found
        }
        try? FileManager.default.removeItem(atPath: markerPath(path))
        try? FileManager.default.removeItem(atPath: path)
        let made = try generate(plan, at: path)
        try [plan.description, "events \(made.events)", "big \(made.bigPodcast)", "contents \(made.contents)"]
            .joined(separator: "\n").write(toFile: markerPath(path), atomically: true, encoding: .utf8)
        report.line(
            label,
            "\(made.events.grouped()) events generated in \((made.seconds ?? 0).grouped(decimals: 1)) s, of which blobs "
                + "\((made.blobSeconds ?? 0).grouped(decimals: 1)) s (not a figure: real deciders, "
                + "\(plan.decisionsPerCommit) decisions per commit)")
        report.line("  holding", made.contents)
        return made
    }

    private static func markerPath(_ path: String) -> String { path + ".plan" }

    private static func reuse(_ plan: LibraryPlan, at path: String) throws -> GeneratedLibrary? {
        guard let marker = try? String(contentsOfFile: markerPath(path), encoding: .utf8) else { return nil }
        let lines = marker.split(separator: "\n").map(String.init)
        func value(_ key: String) -> String? {
            lines.first { $0.hasPrefix(key + " ") }.map { String($0.dropFirst(key.count + 1)) }
        }
        guard lines.first == plan.description, let events = value("events").flatMap(Int.init),
            let big = value("big").flatMap(PodcastID.init), let contents = value("contents"),
            let log = try? EventLog(at: path), log.head.rawValue == UInt64(events)
        else { return nil }
        return GeneratedLibrary(path: path, events: events, bigPodcast: big, contents: contents, seconds: nil)
    }

    /// Blobs first (transcripts with their SRTs, images), then the decisions, in commits of
    /// `plan.decisionsPerCommit`, until the log holds `plan.events`.
    private static func generate(_ plan: LibraryPlan, at path: String) throws -> GeneratedLibrary {
        let started = ContinuousClock.now
        let log = try EventLog.create(at: path)
        let transcripts = try TranscriptPool.make(
            count: plan.transcripts, bytes: plan.transcriptBytes, seed: plan.seed, blobs: log.blobs)
        let images = try ImagePool.make(scale: plan.imageScale, count: plan.images, seed: plan.seed, blobs: log.blobs)
        let blobSeconds = (ContinuousClock.now - started).seconds
        var director = SimulatedProducer(plan: plan, transcripts: transcripts, images: images)
        var batcher = CommitBatcher(seed: plan.seed)
        var appended = 0
        try log.write { writer in
            while appended < plan.events {
                var decisions: [[DomainEvent]] = []
                var count = 0
                while decisions.count < plan.decisionsPerCommit && appended + count < plan.events {
                    let events = director.nextDecision()
                    decisions.append(events)
                    count += events.count
                }
                try writer.append(batcher.commit(of: decisions, at: Timestamp(rawValue: director.clock)!))
                appended += count
            }
        }
        guard director.refusals == 0 else {
            throw BenchFailure("the generator made \(director.refusals) commands the deciders refused; fix SimulatedProducer")
        }
        return GeneratedLibrary(
            path: path, events: appended, bigPodcast: director.bigPodcast!,
            contents: contents(director.shell, plan, blobBytes: try blobBytes(log.blobs.directory)),
            seconds: (ContinuousClock.now - started).seconds, blobSeconds: blobSeconds)
    }

    private static func contents(_ shell: GeneratingShell, _ plan: LibraryPlan, blobBytes: UInt64) -> String {
        "\(shell.podcastIDs.count) podcasts, \(shell.created.count.grouped()) episodes created, "
            + "\(shell.live.count.grouped()) live (\(plan.bigPodcastEpisodes.grouped()) in the measured podcast); "
            + "\(plan.transcripts.grouped()) transcripts of \(plan.transcriptBytes.lowerBound / 1_024)-"
            + "\(plan.transcriptBytes.upperBound / 1_024) KB with their SRTs, images x\(plan.imageScale): "
            + "\(RebuildFigures.megabytes(blobBytes)) of blobs"
    }

    /// Bytes of the blob files (LZ4-framed) under `directory`.
    private static func blobBytes(_ directory: String) throws -> UInt64 {
        var total: UInt64 = 0
        guard let files = FileManager.default.enumerator(atPath: directory) else { return 0 }
        for case let name as String in files {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)
            if attributes[.type] as? FileAttributeType == .typeRegular { total += (attributes[.size] as? UInt64) ?? 0 }
        }
        return total
    }
}
