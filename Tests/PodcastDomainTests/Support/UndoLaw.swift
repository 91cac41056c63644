import Testing

@testable import PodcastDomain

/// The law undo keeps for every aggregate: after `history`, doing `event` and then appending its
/// inverse brings the aggregate back to where it was; the inverse's events survive the log's encoding;
/// and undoing the undo does `event` again.
///
/// An entity undone to before its creation is deleted rather than never created, which every command
/// treats the same, so there only what commands see (`visible`) must come back.
func expectUndoLaw<D: Decider, Visible: Equatable>(
    _ decider: D.Type, after history: [DomainEvent], doing event: DomainEvent,
    inverse: (DomainEvent, D.State) -> [DomainEvent], visible: (D.State) -> Visible,
    sourceLocation: SourceLocation = #_sourceLocation
) where D.State: Equatable {
    let before = D.fold(history)
    let after = D.evolve(before, event)
    let undo = inverse(event, before)
    #expect(!undo.isEmpty, "\(event.type) has an inverse", sourceLocation: sourceLocation)
    let undone = undo.reduce(after, D.evolve)
    if before == D.initial {
        #expect(visible(undone) == visible(before), "\(event.type)", sourceLocation: sourceLocation)
    } else {
        #expect(undone == before, "\(event.type)", sourceLocation: sourceLocation)
    }
    undo.forEach { expectRoundTrip($0, sourceLocation: sourceLocation) }
    let redo = undo.flatMap { inverse($0, after) }
    #expect(visible(redo.reduce(undone, D.evolve)) == visible(after), "redo of \(event.type)", sourceLocation: sourceLocation)
}
