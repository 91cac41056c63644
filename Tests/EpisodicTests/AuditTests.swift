import CoreValues
import Episodic
import EventCodec
import EventLog
import Foundation
import GRDB
import PodcastDomain
import Projections
import Testing

@Suite("Audit: the log, history, as-of, verify")
struct AuditTests {
    @Test("the log's filters: podcast with its episodes, episode, type, actor, command, since and until")
    func filters() throws {
        let studio = try FacadeLibrary()
        let show = try studio.createPodcast("Show")
        let other = try studio.createPodcast("Other")
        let episode = try studio.createEpisode(in: show, "One")
        try studio.createEpisode(in: other, "Elsewhere")
        let retitle = try studio.must(Submission(.episode(.id(episode), .retitle("Uno"))))[0]
        func types(_ change: (inout LogFilter) -> Void) throws -> [String] {
            var filter = LogFilter()
            change(&filter)
            var types: [String] = []
            try studio.library.readLog(filter) { types.append($0.record.type) }
            return types
        }
        #expect(try types { $0.podcast = show } == ["PodcastCreated", "EpisodeCreated", "EpisodeRetitled"])
        #expect(try types { $0.episode = episode } == ["EpisodeCreated", "EpisodeRetitled"])
        #expect(try types { $0.types = ["EpisodeCreated"] }.count == 2)
        #expect(try types { $0.command = retitle.commandID } == ["EpisodeRetitled"])
        #expect(try types { $0.actors = ["nobody"] } == [])
        #expect(try types { $0.since = .position(LogPosition(4)) } == ["EpisodeCreated", "EpisodeRetitled"])
        #expect(try types { $0.until = .position(LogPosition(2)) } == ["PodcastCreated", "PodcastCreated"])
        let thirdTime = try EventLog(at: studio.library.path).events()[2].timestamp
        #expect(try types { $0.since = .time(thirdTime) }.count == 3)
        #expect(try types { $0.until = .time(thirdTime) }.count == 3)
    }

    @Test("a filter by episode or stream reads those streams through the index, and gives what the whole log gives")
    func streamFilters() throws {
        let studio = try FacadeLibrary()
        let show = try studio.createPodcast("Show"), other = try studio.createPodcast("Other")
        let one = try studio.createEpisode(in: show, "One"), two = try studio.createEpisode(in: other, "Two")
        for round in 1...4 {
            _ = try studio.library.submit(
                [Submission(.episode(.id(one), .retitle("One, take \(round)"))), Submission(.podcast(.id(other), .describe("round \(round)")))],
                actor: round % 2 == 0 ? "ann" : "bob", atomic: round == 3, clock: studio.tick)
            try studio.must(Submission(.episode(.id(two), .describe("Two, round \(round)"))))
        }
        let all = try EventLog(at: studio.library.path).events()
        let middle = all[all.count / 2]
        func positions(_ change: (inout LogFilter) -> Void) throws -> [UInt64] {
            var filter = LogFilter()
            change(&filter)
            var found: [UInt64] = []
            try studio.library.readLog(filter) { found.append($0.record.position.rawValue) }
            return found
        }
        func expected(_ streams: [String], _ keep: (RecordedEvent) -> Bool = { _ in true }) -> [UInt64] {
            all.filter { streams.contains($0.stream.rawValue) && keep($0) }.map(\.position.rawValue)
        }
        #expect(try positions { $0.episode = one } == expected([one.streamName]))
        #expect(try positions { $0.streams = [StreamID(rawValue: other.streamName)!, StreamID(rawValue: two.streamName)!] }
            == expected([other.streamName, two.streamName]))
        #expect(try positions { $0.episode = one; $0.since = .position(middle.position) }
            == expected([one.streamName]) { $0.position >= middle.position })
        #expect(try positions { $0.episode = one; $0.until = .time(middle.timestamp) }
            == expected([one.streamName]) { $0.timestamp <= middle.timestamp })
        #expect(try positions { $0.episode = one; $0.actors = ["ann"] } == expected([one.streamName]) { $0.actor == "ann" })
        #expect(try positions { $0.episode = one; $0.types = ["EpisodeCreated"] } == expected([one.streamName]) { $0.type == "EpisodeCreated" })
        #expect(try positions { $0.episode = one }.count == 5)
    }

    @Test("history: one entry per command, with what changed from what to what")
    func history() throws {
        let studio = try FacadeLibrary()
        let show = try studio.createPodcast("Show")
        let episode = try studio.createEpisode(in: show, "One")
        try studio.must(Submission(.episode(.id(episode), .retitle("Uno"))))
        let transcript = FacadeLibrary.transcript("words")
        try studio.must(.importTranscript(transcript, into: .id(episode)))
        try studio.must(Submission(.podcast(.id(show), .delete)))

        let entries = try studio.library.history(of: episode)
        #expect(entries.count == 4)
        #expect(entries[1].changes == [
            HistoryEntry.Change(entity: "episode \"Show/1\"", field: "title", before: "\"One\"", after: "\"Uno\"")
        ])
        #expect(entries[1].sentence == "retitled episode \"Show/1\" from \"One\" to \"Uno\"")
        let sha = BlobStore.reference(for: transcript).sha256
        #expect(entries[2].changes.first?.after == "\(transcript.count) B (sha256 \(sha.prefix(8)))")
        #expect(entries[3].changes.map(\.after) == ["deleted"])
        #expect(entries[3].sentence == "deleted episode \"Show/1\" (\"Uno\")")
        // A podcast's history holds its episodes' commands too; the delete is one entry for both.
        let podcast = try studio.library.history(of: show)
        #expect(podcast.count == 5)
        #expect(podcast.last?.changes.map(\.entity) == ["podcast \"Show\"", "episode \"Show/1\""])
    }

    @Test("history prints a text on one line, its accents kept, and cuts one longer than 60 characters")
    func historyText() throws {
        let studio = try FacadeLibrary()
        let show = try studio.createPodcast("Show")
        let episode = try studio.createEpisode(in: show, "One")
        try studio.must(Submission(.episode(.id(episode), .describe("Café\nau lait\r\nà 8 h"))))
        let long = String(repeating: "é", count: 58) + "\nxyz"
        try studio.must(Submission(.episode(.id(episode), .describe(long))))

        let entries = try studio.library.history(of: episode)
        #expect(entries[1].changes.map(\.after) == ["\"Café au lait\r à 8 h\""])
        #expect(entries[2].changes.map(\.after) == ["\"" + String(repeating: "é", count: 58) + " …\""])
    }

    @Test("as-of: the state at every position is the fold of the log up to it")
    func asOf() throws {
        let studio = try FacadeLibrary()
        let show = try studio.createPodcast("Show")
        let episode = try studio.createEpisode(in: show, "One")
        try studio.must(Submission(.episode(.id(episode), .retitle("Uno"))))
        try studio.must(Submission(.episode(.id(episode), .renumber(9))))
        try studio.must(Submission(.episode(.id(episode), .delete)))
        let events = try EventLog(at: studio.library.path).events()
        for cut in 0...events.count {
            let prefix = try events.prefix(cut).map { try EventCoding.decode(type: $0.type, schemaVersion: $0.schemaVersion, payload: $0.payload) }
            let bound = LogBound.position(LogPosition(UInt64(cut)))
            #expect(try studio.library.episode(episode, asOf: bound) == EpisodeDecider.fold(prefix), "at \(cut)")
            let (podcast, episodes) = try studio.library.podcast(show, asOf: bound)
            #expect(podcast == PodcastDecider.fold(prefix), "at \(cut)")
            #expect(episodes == [EpisodeDecider.fold(prefix).live].compactMap { $0 }, "at \(cut)")
        }
        let time = events[2].timestamp
        #expect(try studio.library.episode(episode, asOf: .time(time)).live?.title == "Uno")
    }

    @Test("verify: a clean library, then a flipped byte, a damaged blob, a row edited by hand")
    func verify() throws {
        let studio = try FacadeLibrary()
        let show = try studio.createPodcast("Show")
        let episode = try studio.createEpisode(in: show, "One")
        try studio.must(.importTranscript(FacadeLibrary.transcript("words"), into: .id(episode)))
        for title in ["A", "B", "C"] { try studio.must(Submission(.episode(.id(episode), .retitle(title)))) }
        #expect(try studio.library.verify().isClean)

        // A row edited by hand: the log is fine, the read model is not what it says.
        try studio.library.currentReadModel().database.write { db in
            try db.execute(sql: "UPDATE sidebar_episodes SET title = 'Hacked'")
        }
        let edited = try studio.library.verify()
        #expect(edited.log.isClean)
        #expect(edited.readModel.map { "\($0.table).\($0.column ?? "")" } == ["sidebar_episodes.title"])
        #expect(edited.readModel.first?.live == "\"Hacked\"" && edited.readModel.first?.replayed == "\"C\"")
        try studio.library.readModel().rebuild(log: studio.library.log)
        #expect(try studio.library.verify().isClean)

        // A damaged blob.
        let transcript = try studio.library.liveEpisode(episode).transcript!
        let blobPath = studio.library.log.blobs.path(for: transcript)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: blobPath))
        bytes[bytes.count - 5] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: blobPath))
        let damagedBlob = try Library(at: studio.library.path).verify()
        #expect(!damagedBlob.log.isClean)
        #expect(damagedBlob.log.problems.contains { $0.message.contains(transcript.sha256) })

        // A flipped byte in the middle of a segment.
        try Library(at: studio.library.path).log.blobs.put(FacadeLibrary.transcript("words"))  // the blob again, whole
        let segment = studio.library.path + "/log/00000001.seg"
        var log = try Data(contentsOf: URL(fileURLWithPath: segment))
        log[log.count / 2] ^= 0x01
        try log.write(to: URL(fileURLWithPath: segment))
        let flipped = try Library(at: studio.library.path).verify()
        #expect(!flipped.log.isClean)
        #expect(flipped.log.problems.contains { $0.segment == "00000001.seg" })
        #expect(!flipped.isClean)
    }
}
