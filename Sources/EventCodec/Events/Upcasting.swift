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
        }
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
