import CoreValues
import Testing

@testable import PodcastDomain

/// Text people type is printed back to them by lists, logs and histories; a control character in it would
/// drive their terminal (ESC and CSI start escape sequences, OSC retitles the window, BEL rings). Every
/// free-text field refuses C0, DEL and C1 controls; a description alone may hold line breaks.
@Suite("Control characters in text")
struct ControlCharacterTests {
    let podcastID = Fixture.podcast
    let at = Fixture.monday

    /// One of each class: C0 (NUL, BEL, TAB, ESC, the last C0), DEL, C1 (the first, NEL, CSI, the last).
    static let controls: [Unicode.Scalar] = ["\u{0}", "\u{7}", "\t", "\u{1B}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}", "\u{9B}", "\u{9F}"]
    /// What the issue saw: a window title set through OSC, ended by BEL and by ST.
    static let oscSequences = ["\u{1B}]0;owned\u{7}", "\u{1B}]2;owned\u{1B}\\", "\u{9D}0;owned\u{9C}", "\u{1B}[2J\u{1B}[H"]

    /// `text` with `control` inside, where trimming cannot reach it.
    func inside(_ control: Unicode.Scalar) -> String { "Merge " + String(Character(control)) + " Conflict" }

    @Test("a podcast's name and description refuse each control character, naming it")
    func podcast() {
        let created = Given([Fixture.created()])
        for control in Self.controls {
            Given().when(.create(id: podcastID, name: inside(control), at: at)).thenRefused(.controlCharacter(.podcastName, control))
            created.when(.rename(inside(control))).thenRefused(.controlCharacter(.podcastName, control))
            Given().when(.create(id: podcastID, name: "Show", description: inside(control), at: at))
                .thenRefused(.controlCharacter(.description, control))
            created.when(.describe(inside(control))).thenRefused(.controlCharacter(.description, control))
        }
        for sequence in Self.oscSequences {
            created.when(.rename("Show " + sequence + " end")).thenRefused(.controlCharacter(.podcastName, sequence.unicodeScalars.first!))
            created.when(.describe("About " + sequence)).thenRefused(.controlCharacter(.description, sequence.unicodeScalars.first!))
        }
    }

    @Test("an episode's title, description and thumbnail text refuse each control character")
    func episode() {
        let podcast = [Fixture.created()]
        let episode = Given(podcast, episode: [Fixture.episodeCreated()])
        for control in Self.controls {
            Given(podcast, episode: []).when(.create(id: Fixture.episode, title: inside(control), at: at))
                .thenRefused(.controlCharacter(.episodeTitle, control))
            episode.when(.retitle(inside(control))).thenRefused(.controlCharacter(.episodeTitle, control))
            Given(podcast, episode: []).when(.create(id: Fixture.episode, title: "Pilot", description: inside(control), at: at))
                .thenRefused(.controlCharacter(.description, control))
            episode.when(.describe(inside(control))).thenRefused(.controlCharacter(.description, control))
            episode.when(.changeThumbnailText(.custom(inside(control)))).thenRefused(.controlCharacter(.thumbnailText, control))
        }
        for sequence in Self.oscSequences {
            episode.when(.retitle(sequence + "Pilot")).thenRefused(.controlCharacter(.episodeTitle, sequence.unicodeScalars.first!))
            episode.when(.changeThumbnailText(.custom("EP " + sequence + "1"))).thenRefused(.controlCharacter(.thumbnailText, sequence.unicodeScalars.first!))
        }
    }

    @Test("a font's name refuses each control character, on import, on removal and in thumbnail settings")
    func fontName() {
        let inter = Fixture.blob("Inter-Bold.ttf")
        let podcast = Given([Fixture.created()])
        let episode = Given([Fixture.created()], episode: [Fixture.episodeCreated()])
        for control in Self.controls {
            Given(fonts: []).when(.import(name: inside(control), font: inter)).thenRefused(.controlCharacter(.fontName, control))
            Given(fonts: []).when(.remove(name: inside(control))).thenRefused(.controlCharacter(.fontName, control))
            let settings = ThumbnailSettings(fontName: inside(control))
            episode.when(.changeThumbnailSettings(settings)).thenRefused(.controlCharacter(.fontName, control))
            podcast.when(.changeThumbnailDefaults(settings)).thenRefused(.controlCharacter(.fontName, control))
        }
    }

    @Test("a description and a thumbnail's text keep their line breaks (LF, CR LF, CR); no other field holds one")
    func lineBreaks() {
        let text = "First line\nsecond\r\nthird\rfourth"
        Given([Fixture.created()]).when(.describe(text))
            .then([.podcastDescribed(PodcastDescribed(podcastID: podcastID, description: text))])
        Given([Fixture.created()], episode: [Fixture.episodeCreated()]).when(.describe(text))
            .then([.episodeDescribed(EpisodeDescribed(episodeID: Fixture.episode, description: text))])
        let episode = Given([Fixture.created()], episode: [Fixture.episodeCreated()])
        for lineBreak in ["\n", "\r", "\r\n"] {
            Given([Fixture.created()]).when(.rename("Two" + lineBreak + "lines")).thenRefused(.multipleLines(.podcastName))
            episode.when(.retitle("Two" + lineBreak + "lines")).thenRefused(.multipleLines(.episodeTitle))
            episode.when(.changeThumbnailText(.custom("EP" + lineBreak + "1")))
                .then([.thumbnailTextChanged(ThumbnailTextChanged(episodeID: Fixture.episode, text: .custom("EP" + lineBreak + "1")))])
            Given(fonts: []).when(.import(name: "Inter" + lineBreak + "Bold", font: Fixture.blob("f"))).thenRefused(.multipleLines(.fontName))
        }
        // The other controls that end a line (VT, FF, NEL) are refused as control characters, even in a description.
        for control: Unicode.Scalar in ["\u{B}", "\u{C}", "\u{85}"] {
            episode.when(.describe(inside(control))).thenRefused(.controlCharacter(.description, control))
        }
    }

    @Test("control characters that are white space at either end are trimmed away, not refused")
    func trimmedControls() {
        Given([Fixture.created()]).when(.rename("\t\u{85} Show \u{B}\u{C}\r\n"))
            .then([.podcastRenamed(PodcastRenamed(podcastID: podcastID, name: "Show"))])
        // NUL and ESC are not white space: trimming leaves them, and the rule refuses them.
        Given([Fixture.created()]).when(.rename("Show\u{0}")).thenRefused(.controlCharacter(.podcastName, "\u{0}"))
        Given([Fixture.created()]).when(.rename("\u{1B}Show")).thenRefused(.controlCharacter(.podcastName, "\u{1B}"))
    }

    @Test("printable text that only looks like a control is taken: U+2400-style pictures, U+00A0, emoji, RTL")
    func printableText() {
        for name in ["␛[31m red", "a\u{A0}b", "👩‍💻 Devs", "שלום", "C:\\path", "^[ caret"] {
            Given([Fixture.created()]).when(.rename(name)).then([.podcastRenamed(PodcastRenamed(podcastID: podcastID, name: name))])
        }
    }

    @Test("an actor refuses every control character, line breaks included")
    func actor() throws {
        for control in Self.controls + ["\n", "\r"] {
            #expect(throws: DomainError.controlCharacter(.actor, control)) { try Rules.actor("ana" + String(Character(control))) }
        }
        #expect(try Rules.actor("ana \"the editor\"") == "ana \"the editor\"")
    }

    @Test("the refusal names the field and the character as U+XXXX, and says what to do")
    func message() {
        #expect(DomainError.controlCharacter(.episodeTitle, "\u{1B}").description
            == "the episode title holds the control character U+001B (ESC), which a terminal would obey instead of showing. Remove it.")
        #expect(DomainError.controlCharacter(.description, "\u{9B}").description
            == "the description holds the control character U+009B (CSI), which a terminal would obey instead of showing. "
            + "Remove it; line breaks are the only control characters a description may hold.")
        #expect(DomainError.controlCharacter(.actor, "\u{0}").description.contains("the actor holds the control character U+0000 (NUL)"))
        #expect(ControlCharacter.name("\u{7F}") == "U+007F (DEL)")
        #expect(ControlCharacter.name("\u{85}") == "U+0085 (NEL)")
    }

    @Test("exactly C0, DEL and C1 are control characters")
    func classification() {
        for value in UInt32(0)...0x2FF {
            let scalar = Unicode.Scalar(value)!
            #expect(ControlCharacter.contains(scalar) == (scalar.properties.generalCategory == .control), "U+\(String(value, radix: 16))")
        }
    }
}
