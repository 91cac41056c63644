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
        // Thumbnail settings gained a text fit and the overlay's placement, scale and position, and a
        // render its drawn size. Settings written before meant text drawn at its size and an overlay
        // filling the canvas (``ThumbnailSettings/beforeFitting``); a render drew the text at the size set.
        Step(type: PodcastCreated.type, version: 1) { $0.updating("thumbnailDefaults", with: beforeFitting) },
        Step(type: PodcastThumbnailDefaultsChanged.type, version: 1) { $0.updating("thumbnailDefaults", with: beforeFitting) },
        Step(type: PodcastRestored.type, version: 1) { old in
            old.updating("podcast") { $0.updating("thumbnailDefaults", with: beforeFitting) }
        },
        Step(type: EpisodeCreated.type, version: 2) { $0.updating("thumbnailSettings", with: beforeFitting) },
        Step(type: ThumbnailSettingsChanged.type, version: 1) { $0.updating("settings", with: beforeFitting) },
        Step(type: ThumbnailRendered.type, version: 1) { $0.updating("thumbnail", with: renderBeforeFitting) },
        // EpisodeCreated 3 → 4 and PodcastRestored 2 → 3: podcasts gained a default background, copied
        // into new episodes; episodes created before were given none, and podcasts had none.
        Step(type: EpisodeCreated.type, version: 3) { $0 },
        Step(type: PodcastRestored.type, version: 2) { $0 },
        Step(type: EpisodeRestored.type, version: 2) { old in
            old.updating("episode") {
                $0.updating("thumbnailSettings", with: beforeFitting).updating("thumbnail", with: renderBeforeFitting)
            }
        },
        // Thumbnail text became a choice (the number, the title, or words of one's own) that podcasts keep
        // a default of. It was a string, or null (or left out) for the number; episodes were created
        // saying their number, and podcasts had no default but that.
        Step(type: ThumbnailTextChanged.type, version: 1) { $0.merging(["text": thumbnailText($0["text"])]) { $1 } },
        Step(type: EpisodeCreated.type, version: 4) { $0.merging(["thumbnailText": thumbnailText(nil)]) { $1 } },
        Step(type: EpisodeRestored.type, version: 3) { old in
            old.updating("episode") { $0.merging(["thumbnailText": thumbnailText($0["thumbnailText"])]) { $1 } }
        },
        Step(type: PodcastRestored.type, version: 3) { old in
            old.updating("podcast") { $0.merging(["defaultThumbnailText": thumbnailText(nil)]) { $1 } }
        },
    ]

    /// Thumbnail text as written before it was a choice: a string, or null for the number.
    private static func thumbnailText(_ old: Any?) -> [String: Any] {
        guard let text = old as? String else { return ["kind": "episodeNumber"] }
        return ["kind": "custom", "text": text]
    }

    /// Settings as written before fitting, with the values that mean what they drew.
    private static func beforeFitting(_ settings: [String: Any]) -> [String: Any] {
        let before = ThumbnailSettings.beforeFitting
        return settings.merging([
            "textFit": before.textFit.rawValue, "overlayPlacement": before.overlayPlacement.rawValue,
            "overlayScale": before.overlayScale, "overlayPositionX": before.overlayPositionX,
            "overlayPositionY": before.overlayPositionY,
        ]) { old, _ in old }
    }

    /// A render recorded before fitting: its settings as above, its text drawn at the size they set, its
    /// font still in the library as far as it knew.
    private static func renderBeforeFitting(_ thumbnail: [String: Any]) -> [String: Any] {
        var new = thumbnail.updating("inputs") { $0.updating("settings", with: beforeFitting) }
        let settings = (new["inputs"] as? [String: Any])?["settings"] as? [String: Any]
        new["drawnFontSize"] = settings?["fontSize"] ?? ThumbnailSettings.defaults.fontSize
        new["fontRemoved"] = false
        return new
    }

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

extension Dictionary where Key == String, Value == Any {
    /// This object with the object under `key` passed through `change`; as it is when `key` holds no
    /// object (an optional left out, or null).
    fileprivate func updating(_ key: String, with change: ([String: Any]) -> [String: Any]) -> [String: Any] {
        guard let inner = self[key] as? [String: Any] else { return self }
        var new = self
        new[key] = change(inner)
        return new
    }
}
