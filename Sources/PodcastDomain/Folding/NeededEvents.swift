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
    /// The kept events, in an order that folds as the stream does.
    public var elements: [Element] { kept }
    @usableFromInline var kept: [Element] = []
    @usableFromInline var effects: [EventEffect<Field>?] = []

    @inlinable
    public init() {}

    /// Adds the stream's next event; `dropped` is called with each earlier one it overwrites.
    @inlinable
    public mutating func append(_ element: Element, effect: EventEffect<Field>?, dropped: (Element) -> Void = { _ in }) {
        switch effect {
        case .replacesState?:
            kept.forEach(dropped)
            kept.removeAll(keepingCapacity: true)
            effects.removeAll(keepingCapacity: true)
        case .sets(let field)?:
            // The latest event that set the same field, if no event of unknown effect came after it, is
            // overwritten. The new event takes its place: the events after that place set other fields,
            // and events that set different fields give the same state in either order.
            if let index = effects.lastIndex(where: { $0.map { $0.sets(field) } ?? true }), effects[index] != nil {
                dropped(kept[index])
                kept[index] = element
                return
            }
        case nil:
            break
        }
        kept.append(element)
        effects.append(effect)
    }
}
