import CoreValues
import Episodic
import EventLog
import Foundation
import PodcastDomain
import Projections
import Testing

/// The library speaks to apps as much as to the CLI: its messages name no command line to type.
@Suite("Library error wording")
struct ErrorWordingTests {
    @Test("messages from the library name no `episodic` command and no option")
    func noCommandLine() {
        let id = CommandID(UUID())
        let errors: [any Error] = [
            LibraryError.podcastNotFound("x"), LibraryError.episodeNotFound("x/1"), LibraryError.noSubtitles(EpisodeID(UUID())),
            LibraryError.commandNotFound("cf1a"), UndoError.conflicts(id, []), UndoError.nothingToRedo,
            UndoError.redoPastNewWork(undo: id), UndoError.notAnUndo(id),
            ProjectionError.unreadableEvent(position: 1, reason: "x"), BackupError.archiveExists(path: "/b"),
            EventLogError.libraryMissing(path: "/l"),
            EventLogError.damagedAcknowledgedCommit(segment: "00000001.seg", offset: 8, reason: "x"),
        ]
        for error in errors {
            let text = "\(error)"
            #expect(!text.contains("`episodic") && !text.contains("--"), "\(text)")
        }
    }
}
