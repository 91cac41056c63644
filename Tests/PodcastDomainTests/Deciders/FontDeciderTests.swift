import CoreValues
import Testing

@testable import PodcastDomain

/// The fonts stream's history, for a font command: given events, when a command, then events or a refusal.
func Given(fonts history: [DomainEvent]) -> FontSpec {
    FontSpec(history: history)
}

struct FontSpec {
    let history: [DomainEvent]

    func when(_ command: FontCommand, _ facts: FontFacts = FontFacts()) -> When {
        let state = FontDecider.fold(history)
        return When(result: Result { () throws(DomainError) in try FontDecider.decide(command, state, facts) })
    }
}

@Suite("Font library decider")
struct FontDeciderTests {
    static let inter = Fixture.blob("Inter-Bold.ttf")
    static let menlo = Fixture.blob("Menlo.ttf")
    static let interImported = DomainEvent.fontImported(FontImported(name: "Inter Bold", font: inter))
    static let menloImported = DomainEvent.fontImported(FontImported(name: "Menlo", font: menlo))

    let inter = Self.inter
    let menlo = Self.menlo

    // MARK: import

    @Test("import trims the name and records the font's blob")
    func importFont() {
        Given(fonts: []).when(.import(name: "  Inter Bold \n", font: inter))
            .then([.fontImported(FontImported(name: "Inter Bold", font: inter))])
        Given(fonts: [Self.interImported]).when(.import(name: "Menlo", font: menlo)).then([Self.menloImported])
    }

    @Test("import refuses a blank, multi-line or overlong name; 200 scalars are enough")
    func importBadNames() {
        let given = Given(fonts: [])
        given.when(.import(name: " \t ", font: inter)).thenRefused(.blank(.fontName))
        given.when(.import(name: "Inter\nBold", font: inter)).thenRefused(.multipleLines(.fontName))
        given.when(.import(name: String(repeating: "f", count: 201), font: inter)).thenRefused(.tooLong(.fontName, limit: 200))
        given.when(.import(name: String(repeating: "f", count: 200), font: inter))
            .then([.fontImported(FontImported(name: String(repeating: "f", count: 200), font: inter))])
    }

    @Test("a name is unique ignoring case and surrounding spaces; the same font under the same name changes nothing, under another name it is refused, naming it")
    func importTakenName() {
        let given = Given(fonts: [Self.interImported])
        given.when(.import(name: " inter BOLD ", font: menlo)).thenRefused(.fontNameTaken("Inter Bold"))
        given.when(.import(name: "inter bold", font: inter)).thenRefused(.fontNameTaken("Inter Bold"))
        given.when(.import(name: " Inter Bold ", font: inter)).thenNothingHappens()
        // The same file under another name would be the same font twice.
        given.when(.import(name: "Inter", font: inter)).thenRefused(.fontAlreadyImported(as: "Inter Bold"))
    }

    // MARK: remove

    @Test("remove takes the name ignoring case, and the event names the font as it was imported")
    func remove() {
        Given(fonts: [Self.interImported, Self.menloImported]).when(.remove(name: " inter bold"))
            .then([.fontRemoved(FontRemoved(name: "Inter Bold"))])
    }

    @Test("removing a font episodes use is refused, naming them; --force removes it anyway")
    func removeInUse() {
        let given = Given(fonts: [Self.interImported])
        let using = FontFacts(episodesUsing: ["Night Shift/4", "Night Shift/5"])
        given.when(.remove(name: "inter bold"), using).thenRefused(.fontInUse("Inter Bold", by: ["Night Shift/4", "Night Shift/5"]))
        given.when(.remove(name: "inter bold", force: true), using).then([.fontRemoved(FontRemoved(name: "Inter Bold"))])
        #expect(DomainError.fontInUse("Inter Bold", by: ["Night Shift/4"]).description.hasPrefix(
            "the font \"Inter Bold\" is used by the thumbnail settings of episode Night Shift/4. Choose another font for it first"))
    }

    @Test("removing a name no font has is refused, with the name; so is a blank name")
    func removeUnknown() {
        Given(fonts: []).when(.remove(name: "Menlo")).thenRefused(.fontNotFound("Menlo"))
        Given(fonts: [Self.interImported]).when(.remove(name: " Inter ")).thenRefused(.fontNotFound("Inter"))
        Given(fonts: [Self.interImported, .fontRemoved(FontRemoved(name: "Inter Bold"))])
            .when(.remove(name: "Inter Bold")).thenRefused(.fontNotFound("Inter Bold"))
        Given(fonts: [Self.interImported]).when(.remove(name: "  ")).thenRefused(.blank(.fontName))
    }

    @Test("once removed, the name is free for another font")
    func reimport() {
        Given(fonts: [Self.interImported, .fontRemoved(FontRemoved(name: "Inter Bold"))])
            .when(.import(name: "INTER BOLD", font: menlo))
            .then([.fontImported(FontImported(name: "INTER BOLD", font: menlo))])
    }

    // MARK: evolve

    @Test("the state finds fonts by name ignoring case, lists them by name, and ignores other streams")
    func evolve() {
        let state = FontDecider.fold([Self.menloImported, Self.interImported, Fixture.created()])
        #expect(state.fonts.map(\.name) == ["Inter Bold", "Menlo"])
        #expect(state.font(named: " menlo ") == ImportedFont(name: "Menlo", font: menlo))
        #expect(state.font(named: "Inter") == nil)
        #expect(FontDecider.fold([Self.interImported, .fontRemoved(FontRemoved(name: "inter bold"))]).fonts.isEmpty)
        #expect(Self.interImported.stream == "fonts")
        #expect(Self.interImported.blobs == [inter])
    }

    // MARK: undo

    /// For each font event type: a history, and the event that follows it.
    static let inverseCases: [(history: [DomainEvent], event: DomainEvent)] = [
        ([], interImported),
        ([interImported], menloImported),
        ([interImported, menloImported], .fontRemoved(FontRemoved(name: "Menlo"))),
    ]

    @Test("do, then undo, brings the fonts back to what they were; undoing the undo does it again", arguments: inverseCases.indices)
    func undo(index: Int) {
        let (history, event) = Self.inverseCases[index]
        expectUndoLaw(FontDecider.self, after: history, doing: event, inverse: { Inverses.of($0, before: $1) }, visible: { $0 })
    }

    @Test("undo of an import removes the font; undo of a removal imports the same blob under the same name")
    func inverses() {
        #expect(Inverses.of(Self.interImported, before: FontDecider.initial) == [.fontRemoved(FontRemoved(name: "Inter Bold"))])
        #expect(Inverses.of(.fontRemoved(FontRemoved(name: "Inter Bold")), before: FontDecider.fold([Self.interImported]))
            == [Self.interImported])
    }

    @Test("font events overlap for undo only when they are about the same name, in any case")
    func overlaps() {
        let removed = DomainEvent.fontRemoved(FontRemoved(name: "inter bold"))
        #expect(Self.interImported.overlaps(removed))
        #expect(!Self.interImported.overlaps(Self.menloImported))
        #expect(Self.interImported.changedFields == [.font])
    }
}
