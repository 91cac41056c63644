import PodcastDomain

/// What a podcast's episode list shows: the order, a title search, flag filters, and a page.
public struct EpisodeQuery: Sendable, Equatable {
    public var podcast: PodcastID
    public var sort: EpisodeSort
    /// Part of a title; case and accents do not count.
    public var search: String?
    /// Filters of one kind (missing something, something outdated) hold when any of them does; each
    /// kind given must hold: `--missing transcript --missing srt --outdated thumbnail` is (no transcript
    /// or no SRT) and an outdated thumbnail.
    public var filters: Set<EpisodeFilter>
    public var limit: Int?
    public var offset: Int

    public init(
        podcast: PodcastID, sort: EpisodeSort = .default, search: String? = nil, filters: Set<EpisodeFilter> = [],
        limit: Int? = nil, offset: Int = 0
    ) {
        self.podcast = podcast
        self.sort = sort
        self.search = search
        self.filters = filters
        self.limit = limit
        self.offset = offset
    }
}

/// The six orders of DOMAIN.md, written as the CLI takes them (`-` for descending).
public enum EpisodeSort: String, Sendable, CaseIterable {
    case number, numberDescending = "-number"
    case title, titleDescending = "-title"
    case date, dateDescending = "-date"

    /// Newest numbers first, as the reference app shows them.
    public static let `default` = EpisodeSort.numberDescending

    /// Ties (equal titles or dates) are broken by number, so every order is total.
    var orderBy: String {
        switch self {
        case .number: "number ASC"
        case .numberDescending: "number DESC"
        case .title: "title_folded ASC, number ASC"
        case .titleDescending: "title_folded DESC, number DESC"
        case .date: "publish_date ASC, number ASC"
        case .dateDescending: "publish_date DESC, number DESC"
        }
    }
}

/// The flag filters of an episode list.
public enum EpisodeFilter: String, Sendable, CaseIterable {
    case missingTranscript, missingSRT, missingThumbnail, outdatedSRT, outdatedThumbnail

    /// Filters of the same kind are alternatives.
    var kind: Int {
        switch self {
        case .missingTranscript, .missingSRT, .missingThumbnail: 0
        case .outdatedSRT, .outdatedThumbnail: 1
        }
    }

    /// The SQL condition on the sidebar's episodes that `filters` make.
    static func condition(_ filters: Set<EpisodeFilter>) -> String? {
        let kinds = Dictionary(grouping: allCases.filter(filters.contains), by: \.kind).sorted { $0.key < $1.key }
        guard !kinds.isEmpty else { return nil }
        return kinds.map { "(" + $0.value.map(\.condition).joined(separator: " OR ") + ")" }.joined(separator: " AND ")
    }

    var condition: String {
        switch self {
        case .missingTranscript: "has_transcript = 0"
        case .missingSRT: "has_srt = 0"
        case .missingThumbnail: "has_thumbnail = 0"
        case .outdatedSRT: "srt_outdated = 1"
        case .outdatedThumbnail: "thumbnail_outdated = 1"
        }
    }
}
