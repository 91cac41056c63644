import CoreValues

/// The rules commands are checked against. Each returns the value as it will be stored (trimmed,
/// normalised) or throws the broken rule.
public enum Rules {
    static let nameLimit = 200
    static let descriptionLimit = 5000
    static let thumbnailTextLimit = 100
    public static let episodeNumbers = 1...Int(Int32.max)

    /// A name or title: trimmed, not empty, one line.
    static func name(_ text: String, _ field: TextField) throws(DomainError) -> String {
        guard let checked = try optionalText(text, field) else { throw .blank(field) }
        return checked
    }

    /// Optional text: trimmed; nothing left means none. No control characters but a multi-line field's
    /// line breaks. Lengths count Unicode scalars, as JSON Schema's `maxLength` does (and unlike grapheme
    /// clusters, the count does not change with Unicode versions).
    static func optionalText(_ text: String?, _ field: TextField) throws(DomainError) -> String? {
        guard let trimmed = text.map(trim), !trimmed.isEmpty else { return nil }
        // LF and CR are left to the line rule below, so that a one-line field's refusal speaks of lines.
        if let control = ControlCharacter.first(in: trimmed, allowingLineBreaks: true) { throw .controlCharacter(field, control) }
        if field.isSingleLine, trimmed.contains(where: \.isNewline) { throw .multipleLines(field) }
        guard trimmed.unicodeScalars.count <= field.limit else { throw .tooLong(field, limit: field.limit) }
        return trimmed
    }

    /// Thumbnail text: custom words checked as ``optionalText(_:_:)`` checks them; blank ones mean the
    /// default, the episode's number.
    static func thumbnailText(_ text: ThumbnailText) throws(DomainError) -> ThumbnailText {
        guard case .custom(let words) = text else { return text }
        return ThumbnailText(custom: try optionalText(words, .thumbnailText))
    }

    /// Who made a change, as every event records it: no control characters, since `episodic log` and
    /// `history` print it. (The log itself refuses a blank actor, or one above 200 UTF-8 bytes.)
    public static func actor(_ name: String) throws(DomainError) -> String {
        if let control = ControlCharacter.first(in: name) { throw .controlCharacter(.actor, control) }
        return name
    }

    /// Subtitles hold at least one cue.
    static func subtitles(_ subtitles: SubtitlesRef) throws(DomainError) -> SubtitlesRef {
        guard subtitles.cueCount >= 1 else { throw .noCues }
        return subtitles
    }

    /// The key under which podcast names must be unique: case and surrounding spaces do not count.
    public static func nameKey(_ name: String) -> String { trim(name).lowercased() }

    static func episodeNumber(_ number: Int) throws(DomainError) -> Int {
        guard episodeNumbers.contains(number) else { throw .episodeNumberOutOfRange(number) }
        return number
    }

    static func image(_ image: ImageRef) throws(DomainError) -> ImageRef {
        guard ImageRef.sides.contains(image.width), ImageRef.sides.contains(image.height) else {
            throw .imageSizeOutOfRange(width: image.width, height: image.height)
        }
        return image
    }

    static func settings(_ settings: ThumbnailSettings) throws(DomainError) -> ThumbnailSettings {
        func check(_ name: String, _ value: Double, _ range: ClosedRange<Double>) throws(DomainError) {
            guard value.isFinite, range.contains(value) else {
                throw .settingOutOfRange(setting: name, value: "\(value)", allowed: "\(range.lowerBound) to \(range.upperBound)")
            }
        }
        try check("fontSize", settings.fontSize, ThumbnailSettings.fontSizes)
        try check("textPositionX", settings.textPositionX, ThumbnailSettings.positions)
        try check("textPositionY", settings.textPositionY, ThumbnailSettings.positions)
        try check("horizontalPadding", settings.horizontalPadding, ThumbnailSettings.paddings)
        try check("verticalPadding", settings.verticalPadding, ThumbnailSettings.paddings)
        try check("overlayScale", settings.overlayScale, ThumbnailSettings.overlayScales)
        try check("overlayPositionX", settings.overlayPositionX, ThumbnailSettings.positions)
        try check("overlayPositionY", settings.overlayPositionY, ThumbnailSettings.positions)
        for (name, side) in [("canvasWidth", settings.canvasWidth), ("canvasHeight", settings.canvasHeight)] {
            guard ThumbnailSettings.canvasSides.contains(side) else {
                throw .settingOutOfRange(setting: name, value: "\(side)", allowed: "16 to 8192 pixels")
            }
        }
        var checked = settings
        checked.fontName = try optionalText(settings.fontName, .fontName)
        return checked
    }

    /// A transcript's bytes: UTF-8, not blank, at most 10 MB, and the size its reference declares.
    /// Checks a transcript as it is imported, reading it as the conversion will, so that a transcript
    /// that cannot become subtitles is refused here rather than by `transcript convert` later. Returns
    /// the small defects read past; `strict` refuses them.
    static func transcript(_ bytes: [UInt8], _ ref: BlobRef, strict: Bool) throws(DomainError) -> [TranscriptWarning] {
        guard bytes.count <= DomainError.transcriptLimit else { throw .transcriptTooLarge(bytes: bytes.count) }
        guard bytes.count == ref.byteCount else {
            throw .transcriptSizeMismatch(declared: ref.byteCount, actual: bytes.count)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .transcriptNotUTF8 }
        guard text.contains(where: { !$0.isWhitespace && $0 != "\u{FEFF}" }) else { throw .transcriptEmpty }
        do {
            return try SubtitleConversion.check(text, strict: strict)
        } catch {
            throw .transcriptUnreadable(error)
        }
    }

    private static func trim(_ text: String) -> String {
        var scalars = Substring(text)
        while let first = scalars.first, first.isWhitespace || first == "\u{FEFF}" { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

extension TextField {
    /// Everything but a description and a thumbnail's text is one line. The one place that says which
    /// fields may hold line breaks: a field of several lines may hold LF and CR, and no other control
    /// character.
    var isSingleLine: Bool { self != .description && self != .thumbnailText }

    var limit: Int {
        switch self {
        case .podcastName, .episodeTitle, .fontName, .actor: Rules.nameLimit
        case .description: Rules.descriptionLimit
        case .thumbnailText: Rules.thumbnailTextLimit
        }
    }
}
