import PodcastDomain

extension Workspace {
    /// Checks that events applied outside the deciders (an undo's) leave the rules that span entities
    /// kept: each live podcast's name is its own, each live episode belongs to a live podcast and
    /// holds its number alone.
    func checkRules(after events: [DomainEvent]) throws {
        let names = try podcastNames()
        for event in events {
            switch event.aggregate {
            case .podcast(let id):
                guard let podcast = try podcast(id).live else { continue }
                let key = Rules.nameKey(podcast.name)
                if let other = names.first(where: { $0.key != podcast.id && Rules.nameKey($0.value) == key }) {
                    throw UndoError.breaksRule(
                        "podcast \(other.key) is now named \"\(other.value)\". Rename one of them first.")
                }
            case .episode(let id):
                guard let episode = try episode(id).live else { continue }
                guard try podcast(episode.podcastID).live != nil else {
                    throw UndoError.breaksRule(
                        "episode \(episode.id) would come back in podcast \(episode.podcastID), which is deleted. "
                            + "Undo the podcast's deletion first.")
                }
                let holders = try self.holders(of: episode.number, in: episode.podcastID).filter { $0 != episode.id }
                if let other = holders.first {
                    throw UndoError.breaksRule(
                        "number \(episode.number) is now taken by episode \(other). Renumber one of them first.")
                }
            case .fonts, .log:
                break
            }
        }
    }
}
