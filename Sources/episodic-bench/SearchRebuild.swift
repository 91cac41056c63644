import EventLog
import Projections

/// The search projector, rebuilt alone: the one projector that reads blobs (transcripts).
///
/// >>> SEARCH PROJECTOR: wired here. <<<
/// If `SearchProjector` is renamed or takes other arguments, change `projector(log:)`; return nil to
/// print "search rebuild: not built yet" instead of its figure.
enum SearchRebuild {
    static func projector(log: EventLog) -> (any Projector)? {
        SearchProjector(blobs: log.blobs)
    }
}
