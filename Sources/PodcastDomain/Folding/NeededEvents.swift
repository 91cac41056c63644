/// The events of one stream that its fold still needs, kept in order as the stream is read: an event
/// is dropped as soon as a later one overwrites everything it did.
///
/// Folding the kept events from the state the stream had before the first of them gives the state
/// that folding every event gives. An event that sets a field is overwritten by a later one that sets
/// the same field, unless an event of no known effect (a deletion, after which a deleted entity ignores
/// what follows) came between them; an event that replaces the state overwrites every earlier one.
/// `Element` is whatever the reader keeps of an event: a decoded event, or its undecoded bytes.
/// Inlinable, so that a replay's reader gets it specialized: it takes every event of the log.
public struct NeededEvents<Field: Hashable & Sendable, Element> {
    /// The kept events, in an order that folds as the stream does (a view: a replay walks those of
    /// every entity, and copying them out would be most of its cost).
    @inlinable
    public var elements: some Collection<Element> { kept.lazy.map { $0.element } }
    /// Each kept event with its effect, side by side: a replay looks at both for every event.
    @usableFromInline var kept: [(element: Element, effect: EventEffect<Field>?)] = []

    @inlinable
    public init() {}

    /// Adds the stream's next event; `dropped` is called with each earlier one it overwrites.
    @inlinable
    public mutating func append(_ element: Element, effect: EventEffect<Field>?, dropped: (Element) -> Void = { _ in }) {
        switch effect {
        case .replacesState?:
            kept.forEach { dropped($0.element) }
            kept.removeAll(keepingCapacity: true)
        case .sets(let field)?:
            // The latest event that set the same field, if no event of unknown effect came after it, is
            // overwritten. The new event takes its place: the events after that place set other fields,
            // and events that set different fields give the same state in either order.
            if let index = kept.lastIndex(where: { $0.effect.map { $0.sets(field) } ?? true }), kept[index].effect != nil {
                dropped(kept[index].element)
                kept[index] = (element, effect)
                return
            }
        case nil:
            break
        }
        kept.append((element, effect))
    }

    /// Adds the events kept of the stream's next stretch, as if each of its events had been appended in
    /// turn: an event that a later one of the stretch overwrote is overwritten in the whole stream too.
    @inlinable
    public mutating func append(contentsOf later: NeededEvents) {
        for (element, effect) in later.kept { append(element, effect: effect) }
    }
}
