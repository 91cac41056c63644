import EventLog
import Projections

/// The projectors a rebuild measures, by the name a child rebuild is given: the two that read only
/// the log, or search, the one that reads blobs (transcripts) too, through `blobs`.
enum ProjectorChoice {
    static func projectors(named names: String, blobs: BlobReader) throws -> [any Projector] {
        switch names {
        case "sidebar,episode-detail": return [SidebarProjector(), EpisodeDetailProjector()]
        case "search": return [SearchProjector(blobs: blobs)]
        default: throw BenchFailure("unknown projector set \(names)")
        }
    }
}
