import PodcastDomain

extension Workspace {
    /// The podcast a reference names. A full id is taken as it is (the rules then say whether that
    /// podcast exists); a name or a prefix must match exactly one live podcast.
    func resolve(_ reference: PodcastReference) throws -> PodcastID {
        let text: String
        switch reference {
        case .id(let id): return id
        case .text(let given): text = given
        }
        if let id = PodcastID(text.trimmingCharacters(in: .whitespaces)) { return id }
        let names = try podcastNames()
        let key = Rules.nameKey(text)
        if let named = names.first(where: { Rules.nameKey($0.value) == key }) { return named.key }
        let prefix = IDPrefix(text)
        let matches = prefix.map { prefix in names.keys.filter { prefix.matches($0.description) }.sorted() } ?? []
        return try only(matches, answering: text, notFound: .podcastNotFound(text))
    }

    /// The episode a reference names: a full id, `<podcast>/<number>` among live episodes, or a prefix
    /// of exactly one live episode's id.
    func resolve(_ reference: EpisodeReference) throws -> EpisodeID {
        let text: String
        switch reference {
        case .id(let id): return id
        case .text(let given): text = given
        }
        if let id = EpisodeID(text.trimmingCharacters(in: .whitespaces)) { return id }
        if let slash = text.lastIndex(of: "/"), let number = Int(text[text.index(after: slash)...]) {
            let podcast = try resolve(PodcastReference.text(String(text[..<slash])))
            guard let id = try holder(of: number, in: podcast) else { throw LibraryError.episodeNotFound(text) }
            return id
        }
        guard let prefix = IDPrefix(text) else { throw LibraryError.episodeNotFound(text) }
        // The read model's matches, as this batch has left them, and episodes the batch created.
        var matches = Set<EpisodeID>()
        for (id, _) in try readModel.episodes(withIDPrefix: prefix.text, limit: 10) where try episode(id).live != nil {
            matches.insert(id)
        }
        matches.formUnion(loadedEpisodes.filter { prefix.matches($0.key.description) && $0.value.live != nil }.map(\.key))
        return try only(matches.sorted(), answering: text, notFound: .episodeNotFound(text))
    }

    private func only<ID: CustomStringConvertible>(_ matches: [ID], answering text: String, notFound: LibraryError) throws -> ID {
        guard let first = matches.first else { throw notFound }
        guard matches.count == 1 else { throw LibraryError.ambiguous(text, candidates: matches.map(\.description)) }
        return first
    }
}

/// The start of an id as a user types it: hex digits and dashes, in either case.
struct IDPrefix {
    let text: String

    init?(_ given: String) {
        let text = given.trimmingCharacters(in: .whitespaces).lowercased()
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
