import Foundation
import PodcastDomain

/// Older event shapes, brought up to the current one as they are read. Events in the log never change;
/// a new shape is a new schema version plus an upcaster here, from the version before it.
public enum Upcasting {
    /// Turns a payload of `version` into one of `version + 1`.
    struct Step: Sendable {
        let type: String
        let version: Int
        let upgrade: @Sendable ([String: Any]) throws -> [String: Any]
    }

    static let steps: [Step] = [
        // EpisodeCreated 1 → 2: the number was called `episodeNumber` (the reference app's name), and
        // there was no publish date; episodes created then have none.
        Step(type: EpisodeCreated.type, version: 1) { old in
            var new = old
            new["number"] = old["episodeNumber"]
            new["episodeNumber"] = nil
            return new
        },
        // TranscriptImported and TranscriptReplaced 1 → 2: transcripts were not read at import, so
        // none recorded warnings.
        Step(type: TranscriptImported.type, version: 1) { old in old.merging(["warnings": [Any]()]) { $1 } },
        Step(type: TranscriptReplaced.type, version: 1) { old in old.merging(["warnings": [Any]()]) { $1 } },
        // EpisodeRestored 1 → 2: the episode it brings back gained `transcriptWarnings`.
        Step(type: EpisodeRestored.type, version: 1) { old in
            var new = old
            if var episode = old["episode"] as? [String: Any] {
                episode["transcriptWarnings"] = [Any]()
                new["episode"] = episode
            }
            return new
        },
    ]

    struct MissingStep: Error, CustomStringConvertible {
        let type: String
        let version: Int
        var description: String { "no upcaster from \(type) version \(version)" }
    }

    /// Applies each step from `version` up to `current`.
    static func upcast(type: String, from version: Int, to current: Int, payload: Data) throws -> Data {
        guard var object = try JSONSerialization.jsonObject(with: payload) as? [String: Any] else {
            throw MissingStep(type: type, version: version)
        }
        for from in version..<current {
            guard let step = steps.first(where: { $0.type == type && $0.version == from }) else {
                throw MissingStep(type: type, version: from)
            }
            object = try step.upgrade(object)
        }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}
