import CoreValues
import Episodic
import EventLog
import Foundation
import PodcastDomain
import Projections
import Testing

/// A payload the domain cannot decode is what it is: a bad event at a position, named with its field.
/// It is not damage to the log, nor to the stream index, whose reads must not swallow it.
@Suite("An event whose payload cannot be decoded")
struct UndecodablePayloadTests {
    /// A studio whose episode's stream ends in an EpisodeRetitled whose title is a number, appended as
    /// an older or foreign writer could have. Returns the studio, the episode and the bad event's position.
    func studioWithBadEvent() throws -> (FacadeLibrary, EpisodeID, LogPosition) {
        let studio = try FacadeLibrary()
        let show = try studio.createPodcast("Show")
        let episode = try studio.createEpisode(in: show, "One")
        let log = try EventLog(at: studio.library.path)
        let stream = StreamID(rawValue: "episode-\(episode)")!
        let appended = try log.write { writer in
            try writer.append(Commit(
                events: [ProposedEvent(stream: stream, type: "EpisodeRetitled", json: #"{"title":5}"#)],
                expectations: [stream: .exactly(1)], commandID: CommandID(UUID()), actor: "old-tool", timestamp: Timestamp(Date())!))
        }
        return (studio, episode, appended.positions.lowerBound)
    }

    @Test("a command that folds the episode's stream names the position and the field, and the log verifies clean")
    func foldNamesTheField() throws {
        let (studio, episode, position) = try studioWithBadEvent()
        let library = try Library(at: studio.library.path)

        let error = #expect(throws: (any Error).self) {
            try library.submit([Submission(.episode(.id(episode), .retitle("Two")))], actor: "ana").results.first?.get()
        }
        let message = String(describing: error.map { $0 as Any } ?? "")
        #expect(message.contains("position \(position)"), "\(message)")
        #expect(message.contains("title"), "\(message)")
        #expect(!message.contains("stream index"), "\(message)")
        #expect(!(error is EventLogError), "\(message)")
        #expect(try library.log.verify().isClean)
    }

    @Test("the episode's history, through the stream index, reports the event, not index damage")
    func historyNamesTheEvent() throws {
        let (studio, episode, position) = try studioWithBadEvent()
        let library = try Library(at: studio.library.path)
        let error = #expect(throws: (any Error).self) { try library.history(of: episode) }
        let message = String(describing: error.map { $0 as Any } ?? "")
        #expect(message.contains("position \(position)") && message.contains("title"), "\(message)")
        #expect(!(error is EventLogError), "\(message)")
    }
}
