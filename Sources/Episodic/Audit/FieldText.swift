import CoreValues
import PodcastDomain

/// Values as the audit commands print them: short, on one line, blobs by size and hash prefix.
enum FieldText {
    static func text(_ value: String?) -> String {
        guard let value else { return "none" }
        // Byte by byte (a line feed is never part of a longer UTF-8 sequence), as Foundation's
        // `replacingOccurrences` would, without its first use's cost: bridging to `NSString`, half a
        // millisecond of a command that prints a change.
        let line = String(decoding: value.utf8.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        return "\"" + (line.count > 60 ? line.prefix(59) + "…" : line) + "\""
    }

    static func time(_ value: Timestamp?) -> String { value?.text ?? "none" }

    /// A publish date: a calendar day (`2026-12-11`, as one given in words or as a date is kept: its
    /// midnight UTC, the same day in every zone), or the instant, in UTC, of one given with a time.
    static func publishDate(_ value: Timestamp?) -> String {
        guard let value else { return "none" }
        return value.rawValue % 86_400_000 == 0 ? String(value.text.prefix(10)) : value.text
    }

    static func blob(_ ref: BlobRef?) -> String {
        guard let ref else { return "none" }
        return "\(size(ref.byteCount)) (sha256 \(ref.sha256.prefix(8)))"
    }

    /// The choice, not the words it draws: following the title is one value however the title changes.
    static func thumbnailText(_ value: ThumbnailText) -> String {
        switch value {
        case .episodeNumber: "EP <number>"
        case .title: "the title"
        case .custom(let words): text(words)
        }
    }

    static func image(_ ref: ImageRef?) -> String {
        guard let ref else { return "none" }
        return "\(ref.width)x\(ref.height), " + blob(ref.blob)
    }

    static func subtitles(_ ref: SubtitlesRef?) -> String {
        guard let ref else { return "none" }
        return "\(ref.cueCount) cue\(ref.cueCount == 1 ? "" : "s"), " + blob(ref.blob) + " from transcript \(ref.transcript.sha256.prefix(8))"
    }

    /// What a loss accepted gave up: `positions 9 to 10 (shown by the read models)`.
    package static func loss(_ loss: LossAccepted) -> String {
        var parts: [String] = []
        if let from = loss.lostFrom, let through = loss.lostThrough {
            parts.append(from == through ? "position \(from)" : "positions \(from) to \(through)")
        }
        if let altered = loss.altered { parts.append("the commit ending at position \(altered) as acknowledged") }
        if parts.isEmpty { parts.append("a damaged last commit") }
        return parts.joined(separator: " and ") + " (shown by \(loss.witness))"
    }

    static func thumbnail(_ ref: RenderedThumbnail?) -> String {
        guard let ref else { return "none" }
        return ref.format.rawValue + " " + image(ref.image) + (ref.fontRemoved ? " (outdated: its font was removed)" : "")
    }

    static func settings(_ settings: ThumbnailSettings) -> String {
        "\(settings.fontName ?? "default font") \(number(settings.fontSize)) pt \(settings.fontColorHex)"
            + (settings.outlineEnabled ? " outlined \(settings.outlineColorHex)" : "")
            + " at \(number(settings.textPositionX)),\(number(settings.textPositionY))"
            + " padding \(number(settings.horizontalPadding))x\(number(settings.verticalPadding))"
            + " on \(settings.canvasWidth)x\(settings.canvasHeight) \(settings.backgroundScaling.rawValue)"
            + " fit \(settings.textFit.rawValue) overlay \(settings.overlayPlacement.rawValue)"
            + (settings.overlayPlacement == .original
                ? " \(number(settings.overlayScale))x at \(number(settings.overlayPositionX)),\(number(settings.overlayPositionY))" : "")
    }

    /// The settings that differ between `old` and `new`, each in words: `size: 72 pt → 96 pt`.
    static func settingsParts(_ old: ThumbnailSettings, _ new: ThumbnailSettings) -> [HistoryEntry.Change.Part] {
        let described: [(String, (ThumbnailSettings) -> String)] = [
            ("font", { $0.fontName ?? "default" }),
            ("size", { "\(number($0.fontSize)) pt" }),
            ("colour", { $0.fontColorHex.description }),
            ("outline", { $0.outlineEnabled ? $0.outlineColorHex.description : "none" }),
            ("text position", { "\(number($0.textPositionX)),\(number($0.textPositionY))" }),
            ("padding", { "\(number($0.horizontalPadding))x\(number($0.verticalPadding))" }),
            ("canvas", { "\($0.canvasWidth)x\($0.canvasHeight)" }),
            ("background", {
                switch $0.backgroundScaling {
                case .aspectFill: "fill"
                case .aspectFit: "fit"
                case .stretch: "stretch"
                }
            }),
            ("text fit", { $0.textFit.rawValue }),
            ("overlay", {
                $0.overlayPlacement.rawValue + ($0.overlayPlacement == .original
                    ? " \(number($0.overlayScale))x at \(number($0.overlayPositionX)),\(number($0.overlayPositionY))" : "")
            }),
        ]
        return described.compactMap { name, text in
            let before = text(old), after = text(new)
            return before == after ? nil : HistoryEntry.Change.Part(name: name, before: before, after: after)
        }
    }

    /// Settings told by how they differ from the defaults (`size 96 pt; colour #FFCC00, the rest as by
    /// default`): a log line stands alone, without the state before it to compare with.
    static func settingsAgainstDefaults(_ settings: ThumbnailSettings) -> String {
        let parts = settingsParts(.defaults, settings)
        guard !parts.isEmpty else { return "all as by default" }
        return parts.map { "\($0.name) \($0.after)" }.joined(separator: "; ") + ", the rest as by default"
    }

    /// `72` for a whole number, `72.5` otherwise; a value outside any setting's range (from an older log)
    /// is printed as it is, never converted to an integer that cannot hold it.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Bytes as people read them (``ByteSize``).
    static func size(_ bytes: Int) -> String { ByteSize.text(bytes) }
}
