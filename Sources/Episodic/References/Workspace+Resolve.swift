import CoreValues
import PodcastDomain
import Projections

extension Workspace {
    /// The podcast a reference names. A full id is taken as it is (the rules then say whether that
    /// podcast exists); a name must be a live podcast's; a prefix must match exactly one podcast's id,
    /// live or deleted.
    func resolve(_ reference: PodcastReference) throws -> PodcastID {
        let text: String
        switch reference {
        case .id(let id): return id
        case .text(let given): text = given
        }
        if let id = PodcastID(String(text.trimmingSpaces)) { return id }
        if let named = try podcast(named: text) { return named }
        let matches = try entities(withIDPrefix: text).filter { if case .podcast = $0 { true } else { false } }
        let match = try only(matches, answering: text) {
            LibraryError.podcastNotFound(text, didYouMean: Suggestion.closest(to: text, among: try podcastNames().values))
        }
        return PodcastID(rawValue: match.uuid)
    }

    /// The episode a reference names: a full id, `<podcast>/<number>` among live episodes, or a prefix
    /// of exactly one episode's id, live or deleted.
    func resolve(_ reference: EpisodeReference) throws -> EpisodeID {
        let text: String
        switch reference {
        case .id(let id): return id
        case .text(let given): text = given
        }
        if let id = EpisodeID(String(text.trimmingSpaces)) { return id }
        if let numbered = try episode(numbered: text) { return numbered }
        let matches = try entities(withIDPrefix: text).filter { if case .episode = $0 { true } else { false } }
        return EpisodeID(rawValue: try only(matches, answering: text) {
            LibraryError.episodeNotFound(text, didYouMean: try numberedReference(spaced: text))
        }.uuid)
    }

    /// `Show/3` for `Show 3` (or `Show #3`), when `Show` is a live podcast's name and 3 one of its
    /// episodes: what was probably meant.
    private func numberedReference(spaced text: String) throws -> String? {
        let trimmed = text.trimmingSpaces
        guard let space = trimmed.lastIndex(of: " ") else { return nil }
        var number = trimmed[trimmed.index(after: space)...]
        if number.hasPrefix("#") { number = number.dropFirst() }
        guard let episode = Int(number), let podcast = try podcast(named: String(trimmed[..<space])),
            try holder(of: episode, in: podcast) != nil
        else { return nil }
        let name = try podcastNames()[podcast] ?? String(trimmed[..<space])
        return "\(name)/\(number)"
    }

    /// What `text` names when a command takes either kind: an id (deleted ones too), a podcast's name,
    /// `<podcast>/<number>`, or a prefix of exactly one id of either kind.
    func resolveEntity(_ text: String) throws -> EntityID {
        let trimmed = String(text.trimmingSpaces)
        if let id = PodcastID(trimmed) {
            if case .initial = try podcast(id) { return .episode(EpisodeID(rawValue: id.rawValue)) }
            return .podcast(id)
        }
        if let named = try podcast(named: text) { return .podcast(named) }
        if let numbered = try episode(numbered: text) { return .episode(numbered) }
        return try only(try entities(withIDPrefix: text), answering: text) {
            IDPrefix(text) == nil
                ? LibraryError.podcastNotFound(text, didYouMean: Suggestion.closest(to: text, among: try podcastNames().values))
                : LibraryError.nothingAnswers(text)
        }
    }

    /// The live podcast named `text` (case and surrounding spaces ignored).
    private func podcast(named text: String) throws -> PodcastID? {
        try podcast(nameKey: Rules.nameKey(text))
    }

    /// The live episode `<podcast>/<number>` names; nil when `text` is not of that shape.
    private func episode(numbered text: String) throws -> EpisodeID? {
        guard let slash = text.lastIndex(of: "/"), let number = Int(text[text.index(after: slash)...]) else { return nil }
        let podcast = try resolve(PodcastReference.text(String(text[..<slash])))
        guard let id = try holder(of: number, in: podcast) else {
            let name = try podcastNames()[podcast] ?? String(text[..<slash])
            throw LibraryError.episodeNotFound(text, podcast: PodcastNumbers(name: name, highest: try highestNumbered(in: podcast)?.number))
        }
        return id
    }

    /// Every podcast and episode, live or deleted, whose id starts with `text`, in id order: the read
    /// model's, and those this batch has loaded (it may have created some).
    private func entities(withIDPrefix text: String) throws -> [EntityID] {
        guard let prefix = IDPrefix(text) else { return [] }
        var matches = Set<EntityID>()
        for match in try readModel.entities(withIDPrefix: prefix.text) {
            switch match.entity {
            case .podcast(let id): matches.insert(.podcast(id))
            case .episode(let id): matches.insert(.episode(id))
            }
        }
        for (id, state) in loadedPodcasts where state.existing != nil && prefix.matches(id.description) { matches.insert(.podcast(id)) }
        for (id, state) in loadedEpisodes where state.existing != nil && prefix.matches(id.description) { matches.insert(.episode(id)) }
        return matches.sorted { $0.description < $1.description }
    }

    /// The one match, or the error: none, or several, each listed by a short id and its name.
    private func only(_ matches: [EntityID], answering text: String, notFound: () throws -> LibraryError) throws -> EntityID {
        guard let first = matches.first else { throw try notFound() }
        guard matches.count == 1 else {
            let length = ShortID.length(distinguishing: matches.map(\.description))
            let candidates = try matches.map { String($0.description.prefix(length)) + " " + (try label(of: $0)) }
            throw LibraryError.ambiguous(text, candidates: candidates)
        }
        return first
    }

    /// Whether the podcast or episode was ever created (it may be deleted since).
    func exists(_ entity: EntityID) throws -> Bool {
        switch entity {
        case .podcast(let id): try podcast(id).existing != nil
        case .episode(let id): try episode(id).existing != nil
        }
    }

    /// A podcast or an episode as people name it: `podcast "Night Shift"`, `episode "Night Shift/4"
    /// ("Pilot")`, with `(deleted)` when it is and `markingDeleted`.
    func label(of entity: EntityID, markingDeleted: Bool = true) throws -> String {
        let deleted = markingDeleted ? " (deleted)" : ""
        switch entity {
        case .podcast(let id):
            let state = try podcast(id)
            guard let podcast = state.existing else { return "podcast \(id)" }
            return CommandChanges.podcastLabel(podcast.name) + (state.live == nil ? deleted : "")
        case .episode(let id):
            let state = try episode(id)
            guard let episode = state.existing else { return "episode \(id)" }
            let named = CommandChanges.episodeLabel(episode) { try? self.podcast($0).existing?.name }
            return named + " (\(FieldText.text(episode.title)))" + (state.live == nil ? deleted : "")
        }
    }
}

/// The start of an id as a user types it: hex digits and dashes, in either case.
struct IDPrefix {
    let text: String

    init?(_ given: String) {
        let text = given.trimmingSpaces.lowercased()
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0.isHexDigitLowercase }) else { return nil }
        self.text = text
    }

    func matches(_ id: String) -> Bool { id.hasPrefix(text) }
}

extension UInt8 {
    fileprivate var isHexDigitLowercase: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
    }
}
