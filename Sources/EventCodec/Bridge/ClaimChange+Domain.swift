import EventLog
import PodcastDomain

extension ClaimChange {
    /// The claims a shared log takes with `events`: the domain's ``UniqueKeys`` changes, stream by stream.
    public static func changes(for events: [DomainEvent]) -> [ClaimChange] {
        events.flatMap { event in
            let stream = StreamID(domain: event.stream)
            return UniqueKeys.changes(for: event).map { change in
                switch change {
                case let .hold(kind, scope, key): ClaimChange(.hold, kind: kind.rawValue, stream: stream, scope: scope, key: key)
                case let .rekey(kind, key): ClaimChange(.rekey, kind: kind.rawValue, stream: stream, key: key)
                case let .release(kind): ClaimChange(.release, kind: kind.rawValue, stream: stream)
                }
            }
        }
    }
}
