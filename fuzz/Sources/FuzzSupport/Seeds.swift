import EventLog
import Foundation

/// Libraries written by the real writer, from which the seed corpus is cut: valid files, and a few
/// damaged the ways a crash or a disk damages them.
public enum LogSeeds {
    /// What the log target's blob part stands for.
    public static let blobContent = Array("a transcript, stored as a blob\n".utf8)

    /// Seeds for the log target: up to four segments, then the blob file.
    public static func make() -> [(name: String, parts: [[UInt8]])] {
        let small = library("small", commits: 6, segmentSizeLimit: 1 << 20)
        let rolled = library("rolled", commits: 14, segmentSizeLimit: 700)
        let compacted = library("compacted", commits: 14, segmentSizeLimit: 700, compact: true)
        let segment = small.segments[0]
        let blobFile = small.blob
        var torn = segment
        torn.removeLast(torn.count / 3)
        var flipped = segment
        flipped[flipped.count / 2] ^= 0x10
        var seeds: [(String, [[UInt8]])] = [
            ("valid-one-segment", [segment]),
            ("valid-rolled", Array(rolled.segments.prefix(4))),
            ("valid-compacted", Array(compacted.segments.prefix(4))),
            ("valid-with-blob", [segment, [], [], [], blobFile]),
            ("torn-tail", [torn]),
            ("flipped-bit", [flipped]),
            ("header-only", [Array(segment.prefix(40))]),
            ("zeros-after-tail", [segment + [UInt8](repeating: 0, count: 600)]),
            ("damaged-blob", [segment, [], [], [], Array(blobFile.prefix(blobFile.count - 5))]),
        ]
        if rolled.segments.count > 2 {
            var gap = rolled.segments
            gap.remove(at: 1)
            seeds.append(("segment-missing", Array(gap.prefix(4))))
        }
        return seeds.map { (name: $0.0, parts: $0.1) }
    }

    /// A library of `commits` commits over three streams, each commit's first event referring to the blob.
    static func library(_ name: String, commits: Int, segmentSizeLimit: UInt64, compact: Bool = false) -> (segments: [[UInt8]], blob: [UInt8]) {
        let path = Scratch.folder + "/seed-" + name
        try? FileManager.default.removeItem(atPath: path)
        do {
            let log = try EventLog.create(at: path, options: EventLog.Options(segmentSizeLimit: segmentSizeLimit, indexMergeThreshold: 4))
            let ref = try log.blobs.put(blobContent)
            for i in 0..<commits {
                try log.write { writer in
                    let events = (0..<(1 + i % 3)).map { j in
                        ProposedEvent(
                            stream: StreamID(rawValue: "s\(i % 3)")!, type: "Happened",
                            json: #"{"i":\#(i),"j":\#(j),"text":"\#(String(repeating: "words ", count: 1 + i % 7))"}"#,
                            blobs: j == 0 ? [ref] : [])
                    }
                    try writer.append(Commit(
                        events: events, commandID: CommandID(UUID()), actor: "seed",
                        timestamp: Timestamp(rawValue: 1_790_000_000_000 + Int64(i) * 1000)!))
                }
            }
            if compact { _ = try log.write { try $0.compact() } }
            let names = try FileManager.default.contentsOfDirectory(atPath: path + "/log").filter { $0.hasSuffix(".seg") }.sorted()
            let segments = names.map { Scratch.read(path + "/log/" + $0) ?? [] }
            return (segments, Scratch.read(log.blobs.path(for: ref)) ?? [])
        } catch {
            fatalError("cannot make the seed library \(name): \(error)")
        }
    }
}

/// A valid library whose stream index the index target replaces, and what the log holds.
public enum IndexTemplate {
    public static let path = Scratch.folder + "/index-template"
    /// Merging at 4 entries, so that the index has all three files after the template's 68 commits: a
    /// run, a recent run and a tail of 3 entries.
    public static let options = EventLog.Options(segmentSizeLimit: 1500, lockTimeout: .seconds(1), indexMergeThreshold: 4)
    public static let streams: [StreamID] = (0..<5).map { StreamID(rawValue: "stream-\($0)")! }

    /// Every event, in log order.
    public static let events: [RecordedEvent] = {
        try? FileManager.default.removeItem(atPath: path)
        do {
            // A fixed library id: the chain's hashes, and with them each event's identity (which a kept
            // fold seed names), are then the same in every run.
            let id = LibraryID(UUID(uuid: (0x1D, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1)))
            let log = try EventLog.create(at: path, id: id, options: options)
            for i in 0..<68 {
                try log.write { writer in
                    let events = (0..<(1 + i % 3)).map { j in
                        ProposedEvent(stream: streams[(i * 7 + j) % streams.count], type: "Happened", json: #"{"i":\#(i),"j":\#(j)}"#)
                    }
                    try writer.append(Commit(
                        events: events, commandID: CommandID(UUID(uuid: (UInt8(i), 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(i)))),
                        actor: "seed", timestamp: Timestamp(rawValue: 1_790_000_000_000 + Int64(i))!))
                }
            }
            return try log.events()
        } catch {
            fatalError("cannot make the index template: \(error)")
        }
    }()

    public static var sortedPath: String { path + "/index/streams.sorted" }
    public static var tailPath: String { path + "/index/streams.tail" }
    /// The recent run (`index/streams.recent`), the input's fifth file.
    public static var recentPath: String { path + "/index/streams.recent" }
    /// The fold kept of the first stream (`snapshots/`), the input's third file.
    public static var keptFoldPath: String { path + "/snapshots/s-" + streams[0].rawValue }
    /// The compacted segments' headers (`index/segments`), the input's fourth file.
    public static var catalogPath: String { path + "/index/segments" }

    /// The segment catalog a writer keeps once the compacted segments have settled (a quarter of a
    /// second after their last change).
    static func catalog() -> [UInt8] {
        Thread.sleep(forTimeInterval: 0.3)
        do {
            try EventLog(at: path, options: options).write { _ in }
        } catch {
            fatalError("cannot make the segment catalog: \(error)")
        }
        guard let bytes = Scratch.read(catalogPath) else { fatalError("no segment catalog was written") }
        return bytes
    }

    /// A kept fold of the first stream, made through the public API: after its `version`-th event.
    static func keptFold(version: Int, format: String = "fuzz-1") -> [UInt8] {
        do {
            let log = try EventLog(at: path, options: options)
            let event = events.filter { $0.stream == streams[0] }[version - 1]
            guard let identity = try log.identity(at: event.position) else { fatalError("the template has no event \(event.position)") }
            let point = StreamPoint(position: event.position, version: version, identity: identity)
            log.snapshots.keep(StreamSnapshot(point: point, format: format, state: Array(#"{"n":\#(version)}"#.utf8)), of: streams[0])
            defer { unlink(keptFoldPath) }
            guard let bytes = Scratch.read(keptFoldPath) else { fatalError("no kept fold was written") }
            return bytes
        } catch {
            fatalError("cannot make a kept fold: \(error)")
        }
    }

    /// Seeds for the index target: the sorted run, then the tail.
    public static func seeds() -> [(name: String, parts: [[UInt8]])] {
        _ = events
        guard let sorted = Scratch.read(sortedPath), let tail = Scratch.read(tailPath), let recent = Scratch.read(recentPath) else {
            fatalError("the template has no index, or no recent run")
        }
        var scrambledTail = tail
        if scrambledTail.count >= 32 + 3 * 32 {
            for i in (32 + 32)..<(32 + 64) { scrambledTail[i] ^= 0x5A }
        }
        var movedCovered = sorted
        if movedCovered.count > 24 { movedCovered[16] &+= 1 }
        var wrongEntry = sorted
        if wrongEntry.count > 200 { wrongEntry[200] ^= 0x01 }
        var wrongRecentEntry = recent
        if wrongRecentEntry.count > 150 { wrongRecentEntry[150] ^= 0x01 }
        return [
            ("valid", [sorted, tail, [], [], recent]),
            ("sorted-only", [sorted, []]),
            ("tail-only", [[], tail]),
            ("none", [[], []]),
            ("tail-entry-scrambled", [sorted, scrambledTail, [], [], recent]),
            ("sorted-covered-moved", [movedCovered, tail, [], [], recent]),
            ("sorted-entry-flipped", [wrongEntry, tail, [], [], recent]),
            ("sorted-truncated", [Array(sorted.prefix(sorted.count - 16)), tail, [], [], recent]),
            ("recent-only", [[], tail, [], [], recent]),
            ("recent-entry-flipped", [sorted, tail, [], [], wrongRecentEntry]),
            ("recent-without-tail", [sorted, [], [], [], recent]),
            ("kept-fold", [sorted, tail, keptFold(version: 5), [], recent]),
            ("kept-fold-last", [sorted, tail, keptFold(version: events.filter { $0.stream == streams[0] }.count), [], recent]),
            ("kept-fold-no-index", [[], [], keptFold(version: 3)]),
            ("segment-catalog", [sorted, tail, [], catalog(), recent]),
        ]
    }
}
