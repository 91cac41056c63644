import EventLog

extension StreamID {
    /// A domain stream's name (`podcast-<uuid>`, `episode-<uuid>`), valid as a stream id by construction.
    init(domain name: String) {
        self.init(rawValue: name)!
    }
}
