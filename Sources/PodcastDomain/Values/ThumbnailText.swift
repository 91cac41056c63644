/// What a thumbnail says: the episode's number, its title (following each retitle), or words of the
/// user's own. A podcast keeps one as the default its new episodes start with.
public enum ThumbnailText: Hashable, Sendable {
    /// `EP <number>`: what an episode says unless told otherwise.
    case episodeNumber
    /// The episode's title, as it is now.
    case title
    /// Words of the user's own; line breaks start new lines. Trimmed, never blank.
    case custom(String)

    /// The words drawn on the thumbnail of an episode with this `title` and `number`.
    public func words(title: String, number: Int) -> String {
        switch self {
        case .episodeNumber: "EP \(number)"
        case .title: title
        case .custom(let text): text
        }
    }

    /// `text`, or (nil) the episode's number: the reading of an optional text field.
    public init(custom text: String?) {
        self = text.map(ThumbnailText.custom) ?? .episodeNumber
    }
}

extension ThumbnailText: Codable {
    /// In the log: `{"kind": "episodeNumber"}`, `{"kind": "title"}`, or `{"kind": "custom", "text": "…"}`.
    private enum Kind: String, Codable { case episodeNumber, title, custom }
    private enum CodingKeys: String, CodingKey { case kind, text }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .episodeNumber: self = .episodeNumber
        case .title: self = .title
        case .custom: self = .custom(try container.decode(String.self, forKey: .text))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .episodeNumber: try container.encode(Kind.episodeNumber, forKey: .kind)
        case .title: try container.encode(Kind.title, forKey: .kind)
        case .custom(let text):
            try container.encode(Kind.custom, forKey: .kind)
            try container.encode(text, forKey: .text)
        }
    }
}
