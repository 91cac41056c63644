import Projections

/// A live podcast's name and its live episodes' numbers: how people name them on the command line
/// (`Night Shift`, `Night Shift/3`).
public struct PodcastNames: Equatable, Sendable {
    public var podcast: String
    /// By number; empty when they were not asked for.
    public var episodes: [Int]
}

extension Library {
    /// Every live podcast's name with its episodes' numbers (when `episodes`), for what runs at every
    /// key press and must leave no trace: a shell's tab completion. Nothing in the library is written,
    /// as for another user's library: read models behind the log answer as they stand, and ones that
    /// need a replay (missing, damaged, of an older schema) are replayed in a temporary folder. A
    /// shared library answers from this machine's copy, without asking its server.
    public static func names(at path: String, episodes: Bool) throws -> [PodcastNames] {
        let library = try Library(at: path, lockTimeout: .zero, readOnly: true, progress: nil, notice: nil)
        return try library.podcasts().map { podcast in
            let numbers = episodes ? try library.episodes(EpisodeQuery(podcast: podcast.id, sort: .default)).map(\.number) : []
            return PodcastNames(podcast: podcast.name, episodes: numbers.sorted())
        }
    }
}
