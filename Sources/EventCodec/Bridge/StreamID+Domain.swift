import EventLog

extension StreamID {
    /// A domain stream's name (`podcast-<uuid>`, `episode-<uuid>`, `fonts`), valid as a stream id by
    /// construction.
    public init(domain name: String) {
        self.init(rawValue: name)!
    }
}
