import CoreValues

/// A command the domain refuses. Each message says what is wrong and what to do instead.
public enum DomainError: Error, Hashable, Sendable, CustomStringConvertible {
    case blank(TextField)
    case tooLong(TextField, limit: Int)
    case multipleLines(TextField)
    /// A C0 or C1 control or DEL (``ControlCharacter``), which a terminal printing the text would obey.
    case controlCharacter(TextField, Unicode.Scalar)
    case podcastNameTaken(String, by: PodcastID)
    case episodeNumberTaken(Int, by: EpisodeID)
    case episodeNumberOutOfRange(Int)
    case settingOutOfRange(setting: String, value: String, allowed: String)
    case imageSizeOutOfRange(width: Int, height: Int)
    case transcriptEmpty
    case transcriptNotUTF8
    case transcriptTooLarge(bytes: Int)
    case transcriptSizeMismatch(declared: Int, actual: Int)
    /// The transcript cannot become subtitles (or has defects, under `--strict`).
    case transcriptUnreadable(TranscriptError)
    case noTranscript
    case noCues
    case subtitlesFromAnotherTranscript
    case renderNeedsBackground
    case renderFromOutdatedInputs
    case podcastNotFound
    case podcastDeleted(PodcastID)
    case podcastAlreadyExists(PodcastID)
    case episodeNotFound
    case episodeDeleted(EpisodeID)
    case episodeAlreadyExists(EpisodeID)
    case fontNameTaken(String)
    case fontNotFound(String)
    /// The same font file is already imported, under this name.
    case fontAlreadyImported(as: String)
    /// Episodes' thumbnail settings name the font (as people name the episodes).
    case fontInUse(String, by: [String])
    /// A loss accepted where nothing was lost.
    case nothingLost

    /// Transcripts above this many bytes are refused: 10 MB.
    public static let transcriptLimit = 10 * 1024 * 1024

    public var description: String {
        switch self {
        case .blank(let field):
            "the \(field) is empty. Give it some text other than spaces."
        case let .tooLong(field, limit):
            "the \(field) is longer than \(limit) characters (Unicode scalars). Shorten it."
        case .multipleLines(let field):
            "the \(field) has a line break. Keep it on one line."
        case let .controlCharacter(field, scalar):
            "the \(field) holds the control character \(ControlCharacter.name(scalar)), which a terminal would obey "
                + "instead of showing. Remove it"
                + (field.isSingleLine ? "." : "; line breaks are the only control characters a \(field) may hold.")
        case let .podcastNameTaken(name, id):
            "a podcast named \"\(name)\" already exists (\(id)). Choose another name; case and surrounding spaces do not count."
        case let .episodeNumberTaken(number, id):
            "episode number \(number) is already used in this podcast (by \(id)). Choose another number."
        case .episodeNumberOutOfRange(let number):
            "episode number \(number) is out of range. Use a whole number from 1 to 2147483647."
        case let .settingOutOfRange(setting, value, allowed):
            "\(setting) \(value) is out of range. Use \(allowed)."
        case let .imageSizeOutOfRange(width, height):
            "an image of \(width) x \(height) pixels cannot be used. Each side must be 1 to 16384 pixels."
        case .transcriptEmpty:
            "the transcript is empty. Import a file that holds the episode's text."
        case .transcriptUnreadable(let error):
            // The transcript's own words, as a sentence of this message: "the transcript has no timestamps, …"
            error.description.prefix(1).lowercased() + error.description.dropFirst()
        case .transcriptNotUTF8:
            "the transcript is not UTF-8 text. Save it as UTF-8 and import it again."
        case .transcriptTooLarge(let bytes):
            "the transcript is \(bytes) bytes, above the 10 MB limit. Split it or trim it."
        case let .transcriptSizeMismatch(declared, actual):
            "the transcript's reference says \(declared) bytes but \(actual) were given. Import the file again."
        case .noTranscript:
            "the episode has no transcript. Import one first."
        case .noCues:
            "the subtitles have no cues. Convert a transcript that has timestamps and text."
        case .subtitlesFromAnotherTranscript:
            "these subtitles were made from another transcript than the episode's current one. Convert again."
        case .renderNeedsBackground:
            "the thumbnail has no background image. Set one first; rendering needs it."
        case .renderFromOutdatedInputs:
            "this thumbnail was drawn from settings or images that have changed since. Render again."
        case .podcastNotFound:
            "no such podcast. Check the id, or list podcasts to find it."
        case .podcastDeleted(let id):
            "podcast \(id) was deleted. Undo the deletion to work on it again."
        case .podcastAlreadyExists(let id):
            "podcast \(id) already exists. Create it with a new id."
        case .episodeNotFound:
            "no such episode. Check the id, or list the podcast's episodes to find it."
        case .episodeDeleted(let id):
            "episode \(id) was deleted. Undo the deletion to work on it again."
        case .episodeAlreadyExists(let id):
            "episode \(id) already exists. Create it with a new id."
        case .fontNameTaken(let name):
            "a font named \"\(name)\" is already imported. Import this one under another name, or remove that one first; "
                + "case and surrounding spaces do not count."
        case .fontNotFound(let name):
            "no font named \"\(name)\" is imported. Import it first, or list the fonts to find its name."
        case .fontAlreadyImported(let name):
            "this font file is already imported, as \"\(name)\". Use that name in the settings (`--font \"\(name)\"`)."
        case let .fontInUse(name, episodes):
            "the font \"\(name)\" is used by the thumbnail settings of \(episodes.count == 1 ? "episode" : "\(episodes.count) episodes") "
                + episodes.prefix(10).joined(separator: ", ") + (episodes.count > 10 ? ", …" : "")
                + ". Choose another font for \(episodes.count == 1 ? "it" : "them") first, or remove it all the same "
                + "(they cannot be rendered again until a font of that name is imported)."
        case .nothingLost:
            "nothing was lost: the log holds every commit that was acknowledged, as it was written."
        }
    }
}

/// The free-text fields, named as people call them.
public enum TextField: String, Hashable, Sendable, CustomStringConvertible {
    case podcastName = "podcast name"
    case episodeTitle = "episode title"
    case description
    case thumbnailText = "thumbnail text"
    case fontName = "font name"
    /// Who made a change, as every event records it.
    case actor

    public var description: String { rawValue }
}

extension DomainError: ClassifiedError {
    public var kind: ErrorKind { .refused }
}
