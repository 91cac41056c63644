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

    /// By a cheap digest of the name's bytes (see ``digest(_:)``); a name whose digest another name took
    /// is looked up again each time.
    private var known: [UInt64: Known] = [:]

    mutating func type(named bytes: UnsafeRawBufferPointer) -> Known {
        let digest = Self.digest(bytes)
        if let type = known[digest], Self.matches(type.name, bytes) { return type }
        let name = String(decoding: bytes, as: UTF8.self)
        let type = Known(name: name, podcastEffect: PodcastDecider.effects[name], episodeEffect: EpisodeDecider.effects[name])
        if known[digest] == nil { known[digest] = type }
        return type
    }

    /// The length and the first and last eight bytes, mixed: enough to tell thirty names apart, far
    /// cheaper than hashing every byte of a name a million times.
    private static func digest(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        guard bytes.count >= 8 else { return bytes.reduce(UInt64(bytes.count)) { $0 << 8 | UInt64($1) } }
        let head = bytes.loadUnaligned(as: UInt64.self)
        let tail = bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
        return head ^ (tail << 7 | tail >> 57) ^ UInt64(bytes.count) << 58
    }

    private static func matches(_ name: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var name = name
        return name.withUTF8 { UnsafeRawBufferPointer($0).elementsEqual(bytes) }
    }
}
