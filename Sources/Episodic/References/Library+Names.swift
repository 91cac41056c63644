import Foundation
import PodcastDomain

extension Library {
    /// A podcast or an episode as people name it: `podcast "Night Shift"`, `episode "Night Shift/4"
    /// ("Pilot")`, with `(deleted)` when it is; deleted ones are named as they were.
    public func label(of entity: EntityID) throws -> String {
        try query { try Workspace(log: store, readModel: $0).label(of: entity) }
    }

    /// `text` with each podcast's and episode's id in it replaced by its name (``label(of:)``): the
    /// rules and the library speak of ids, people of names. An id that names neither stays as it is.
    public func namingIDs(in text: String) -> String {
        guard let pattern = try? NSRegularExpression(pattern: #"(?:(?:podcast|episode) )?\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b"#)
        else { return text }
        var result = text
        // From the end, so that the offsets of the matches before stay right.
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            guard let idRange = Range(match.range(at: 1), in: text), let id = PodcastID(String(text[idRange])),
                  let label = try? query({ readModel -> String? in
                      let workspace = Workspace(log: store, readModel: readModel)
                      if case .initial = try workspace.podcast(id) {
                          let episode = EpisodeID(rawValue: id.rawValue)
                          if case .initial = try workspace.episode(episode) { return nil }
                          return try workspace.label(of: .episode(episode), markingDeleted: false)
                      }
                      return try workspace.label(of: .podcast(id), markingDeleted: false)
                  }) ?? nil
            else { continue }
            result.replaceSubrange(Range(match.range, in: result)!, with: label)
        }
        return result
    }
}
