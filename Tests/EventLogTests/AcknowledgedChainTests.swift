import Foundation
import Testing

@testable import EventLog

/// What was acknowledged stays acknowledged: a commit edited anywhere stops writes, not only reads that
/// pass over it; a log that lost its last commits, or holds another where one ended, is refused until
/// the loss is accepted, and the acceptance is itself in the log.
extension ChainTests {
    /// The frames of segment 1 with `old` replaced by `new` in frame `index`, written back as valid LZ4.
    func edit(_ library: TemporaryLibrary, frame index: Int, _ old: String, _ new: String) throws {
        var contents = try frameContents(library)
        let text = String(decoding: contents[index], as: UTF8.self)
        #expect(text.contains(old))
        contents[index] = Array(text.replacingOccurrences(of: old, with: new).utf8)
        try rewrite(library, frames: contents)
    }

    func append(_ log: EventLog) throws -> AppendResult {
        try log.write { try $0.append(Given.commit(Given.event("t"))) }
    }

    @Test("a commit edited in the middle, its frame rewritten with valid checksums, stops every write, and again at the next")
    func editedMiddleCommitStopsWrites() throws {
        let (library, _) = try chainedLibrary()
        try edit(library, frame: 2, #"{"i":3}"#, #"{"i":9}"#)
        let before = try library.snapshot()

        for attempt in 1...2 {
            let error = #expect(throws: EventLogError.self, "attempt \(attempt)") { try append(try library.open()) }
            guard case .brokenChain(let position, let reason)? = error else {
                Issue.record("expected a broken chain, got \(String(describing: error))")
                return
            }
            #expect(position == LogPosition(4))
            #expect(reason.contains("names") && reason.contains("which hashes to"))
            #expect(error?.isDamage == true)
        }
        #expect(try library.snapshot() == before, "a refused write changed the library")
        #expect(try !library.open().verify().isClean)
    }

    @Test("a sealed segment checked once is trusted while its file is unchanged, and checked again once it changes")
    func checkedSegmentsAreCatalogued() throws {
        let (library, log) = try compactableLibrary()
        Thread.sleep(forTimeInterval: Double(SegmentCatalog.settledAfter) / 1e9 + 0.05)
        _ = try append(log)
        let catalog = SegmentCatalog.load(from: library.path + "/index")
        let sealed = log.segments.dropLast()
        #expect(sealed.count >= 2)
        #expect(Set(catalog.entries.keys) == Set(sealed.map(\.number)))
        // Each entry's end hash is the prev the next segment's first commit names.
        for segment in sealed {
            let next = try #require(log.segments.first { $0.number == segment.number + 1 })
            var named: String?
            try log.read(from: next.header.firstPosition, through: next.header.firstPosition) { envelope in
                named = envelope.previousBytes.map { String(decoding: $0, as: UTF8.self) }
            }
            #expect(named == catalog.entries[segment.number]?.endHash.hex, "segment \(segment.number)")
        }

        // An edit in a sealed segment, however long ago it was checked, stops the next write.
        var contents = try frameContents(library, segment: 2)
        contents[1] = Array(String(decoding: contents[1], as: UTF8.self).replacingOccurrences(of: #""i":"#, with: #""j":"#).utf8)
        try rewrite(library, segment: 2, frames: contents)
        let error = #expect(throws: EventLogError.self) { try append(try library.open()) }
        guard case .brokenChain? = error else {
            Issue.record("expected a broken chain, got \(String(describing: error))")
            return
        }
    }

    @Test("the last commit removed at a frame boundary: writes are refused until its loss is accepted, which the log records")
    func removedLastCommit() throws {
        let (library, _) = try chainedLibrary()
        let (frames, _) = try library.frameOffsets()
        try library.truncate(library.segmentPath(1), to: frames.last!)
        let before = try library.snapshot()

        let error = #expect(throws: EventLogError.self) { try append(try library.open()) }
        #expect(error == .lostCommits(lost: LogPosition(7)...LogPosition(9), witness: "the library's head record (HEAD)"))
        #expect(try library.snapshot() == before)
        let problems = try library.open().verify().problems.map(\.message)
        #expect(problems.contains { $0.hasPrefix("positions 7 to 9 are missing") }, "\(problems)")

        let accepted = try #require(try library.open().acceptLoss(acknowledgedThrough: nil) { loss in
            #expect(loss.lost == LogPosition(7)...LogPosition(9))
            return Given.commit(Given.event("log", "LossAccepted", #"{"lostFrom":7,"lostThrough":9}"#))
        })
        #expect(accepted.appended.positions.lowerBound == LogPosition(7))
        #expect(try append(try library.open()).positions.lowerBound == LogPosition(8))
        #expect(try library.open().verify().isClean)
    }

    @Test("the last segment file deleted is a loss like any other")
    func deletedLastSegment() throws {
        let (library, log) = try compactableLibrary()
        let last = try #require(log.segments.last)
        try FileManager.default.removeItem(atPath: library.segmentPath(last.number))
        let error = #expect(throws: EventLogError.self) { try append(try library.open()) }
        guard case .lostCommits(let lost, _)? = error else {
            Issue.record("expected lost commits, got \(String(describing: error))")
            return
        }
        #expect(lost.lowerBound == last.header.firstPosition && lost.upperBound == log.head)
    }

    @Test("an edited last commit is reported by every verify and refused by every write")
    func editedLastCommit() throws {
        let (library, _) = try chainedLibrary()
        try edit(library, frame: 6, #""type":"Happened""#, #""type":"Forged""#)
        for attempt in 1...2 {
            let problems = try library.open().verify().problems.map(\.message)
            #expect(problems.contains { $0.hasPrefix("position 9 holds another commit than the one acknowledged there") }, "attempt \(attempt): \(problems)")
            let error = #expect(throws: EventLogError.self) { try append(try library.open()) }
            guard case .alteredCommit(let position, _, _, _)? = error else {
                Issue.record("expected an altered commit, got \(String(describing: error))")
                return
            }
            #expect(position == LogPosition(9))
        }
    }

    @Test("the head record names the last durable commit after every writer's section, and nothing past it")
    func headRecordFollowsTheLog() throws {
        let (library, log) = try chainedLibrary()
        func record() -> HeadRecord? { HeadRecord.load(libraryAt: library.path).record }
        #expect(record()?.position == log.head)
        #expect(record()?.hash.hex == (try log.verify().headHash))
        try log.write { writer in
            for i in 1...5 { _ = try writer.log.append(Given.commit(Given.event("g", "Grouped", #"{"i":\#(i)}"#)), durably: false) }
            // Not durable yet: the record still names the last synced commit.
            #expect(record()?.position == LogPosition(9))
        }
        #expect(record()?.position == LogPosition(14))
        #expect(record()?.hash.hex == (try log.verify().headHash))
        #expect(record()?.segment?.identity == FileIdentity(path: library.segmentPath(1)))
        // A record a crash tore claims nothing, and the next writer replaces it.
        try library.write(Array("position 99\nhash nope\n".utf8), to: library.path + "/HEAD")
        #expect(HeadRecord.load(libraryAt: library.path) == .unreadable)
        #expect(try library.open().verify().isClean)
        _ = try append(try library.open())
        #expect(record()?.position == LogPosition(15))
    }

    @Test("stretches of the log read apart and joined in order check the chain as one read does, wherever they split")
    func stretchesJoin() throws {
        let (library, log) = try compactableLibrary()
        try log.write { writer in _ = try writer.compact(Self.smallFrames) }
        let id = try #require(log.libraryID)
        let reader = try library.open()
        let head = reader.head
        let expected = try reader.verify().headHash
        func joined(splitAt split: UInt64) throws -> CommitHash? {
            var check = ChainCheck(atStartOf: id)
            for range in [LogPosition(1)...LogPosition(split), LogPosition(split + 1)...head] {
                var stretch = ChainStretch()
                try reader.readHeads(from: range.lowerBound, through: range.upperBound, chain: &stretch) { _ in }
                try check.join(stretch)
            }
            return check.hashOfCurrentCommit
        }
        for split in stride(from: UInt64(1), to: head.rawValue, by: 3) {
            #expect(try joined(splitAt: split)?.hex == expected, "split after \(split)")
        }

        // A commit edited in a compacted frame: the break is found wherever the stretches split.
        let segment = try #require(reader.segments.first)
        var contents = try frameContents(library, segment: segment.number)
        contents[1] = Array(String(decoding: contents[1], as: UTF8.self).replacingOccurrences(of: #""i":"#, with: #""j":"#).utf8)
        try rewrite(library, segment: segment.number, frames: contents)
        let edited = try library.open()
        for split in stride(from: UInt64(1), to: segment.header.firstPosition.rawValue + 40, by: 5) {
            #expect(throws: EventLogError.self, "split after \(split)") {
                var check = ChainCheck(atStartOf: id)
                for range in [LogPosition(1)...LogPosition(split), LogPosition(split + 1)...edited.head] {
                    var stretch = ChainStretch()
                    try edited.readHeads(from: range.lowerBound, through: range.upperBound, chain: &stretch) { _ in }
                    try check.join(stretch)
                }
            }
        }
    }
}
