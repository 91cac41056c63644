import PodcastDomain

/// What a fold knows of each event type it meets: its name, made a `String` once rather than once per
/// event (a replay meets the same thirty names a million times), and its effect on a podcast's or an
/// episode's state.
struct EventTypes {
    struct Known {
        let name: String
        let podcastEffect: EventEffect<Podcast.Field>?
        let episodeEffect: EventEffect<Episode.Field>?
    }

    /// By a hash of the name's bytes; a name whose hash another name took is looked up again each time.
    private var known: [Int: Known] = [:]

    mutating func type(named bytes: UnsafeRawBufferPointer) -> Known {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        let hash = hasher.finalize()
        if let type = known[hash], Self.matches(type.name, bytes) { return type }
        let name = String(decoding: bytes, as: UTF8.self)
        let type = Known(name: name, podcastEffect: PodcastDecider.effects[name], episodeEffect: EpisodeDecider.effects[name])
        if known[hash] == nil { known[hash] = type }
        return type
    }

    private static func matches(_ name: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var name = name
        return name.withUTF8 { UnsafeRawBufferPointer($0).elementsEqual(bytes) }
    }
}
