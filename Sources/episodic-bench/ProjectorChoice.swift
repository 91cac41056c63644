import EventLog
import Projections

/// The projectors a rebuild measures, built explicitly rather than through `Projectors.all`, whose
/// arguments are changing as projectors that need the library (search) arrive.
enum ProjectorChoice {
    static func projectors(named names: String, log: EventLog) throws -> [any Projector] {
        switch names {
        case "sidebar,episode-detail": return [SidebarProjector(), EpisodeDetailProjector()]
        case "search":
            guard let search = SearchRebuild.projector(log: log) else { throw BenchFailure("SearchProjector is not built yet") }
            return [search]
        default: throw BenchFailure("unknown projector set \(names)")
        }
    }
}
