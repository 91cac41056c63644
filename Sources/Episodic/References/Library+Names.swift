import Foundation
import PodcastDomain

extension Library {
    /// `text` with each podcast's and episode's id in it replaced by its name (`episode "Night Shift/4"
    /// ("Pilot")`): the rules and the library speak of ids, people of names. An id that names neither
    /// stays as it is.
    public func namingIDs(in text: String) -> String {
        guard let pattern = try? NSRegularExpression(pattern: #"(?:(?:podcast|episode) )?\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b"#)
        else { return text }
        let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
        guard !matches.isEmpty else { return text }
        return (try? query { readModel in
            let workspace = Workspace(log: store, readModel: readModel)
            var result = text
            // From the end, so that the offsets of the matches before stay right.
            for match in matches.reversed() {
                guard let idRange = Range(match.range(at: 1), in: text),
                      case let entity = try workspace.resolveEntity(String(text[idRange])),
                      try workspace.exists(entity)
                else { continue }
                result.replaceSubrange(Range(match.range, in: result)!, with: try workspace.label(of: entity, markingDeleted: false))
            }
            return result
        }) ?? text
    }
}
