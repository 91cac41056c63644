import Testing
@testable import PodcastDomain

/// SRT and WebVTT files given as transcripts: each cue keeps its time, its text is re-wrapped and re-timed.
@Suite("SRT and WebVTT as transcripts")
struct SubtitleFileInputTests {
    /// The words of every cue, in order, without the `- ` that starts a two-speaker cue's lines.
    static func words(_ subtitles: Subtitles) -> [String] {
        subtitles.cues.flatMap {
            $0.lines.flatMap { $0.trimmingPrefix("- ").split(separator: " ").map(String.init) }
        }
    }

    @Test("SRT: cue numbers, styling tags and entities are not words; each cue keeps its time")
    func srt() throws {
        // Given an SRT file as Descript or YouTube writes one, with CRLF line ends
        let srt = [
            "1", "00:00:01,000 --> 00:00:03,500", "<i>Welcome back</i> to the show,", "",
            "2", "00:00:03,600 --> 00:00:06,000 X1:40 X2:600", "{\\an8}Tom &amp; Jerry are here.", "",
            "3", "00:00:07,000 --> 00:00:09,000", "Thanks for", "having us.", "",
        ].joined(separator: "\r\n")

        // When it is converted
        let subtitles = try SubtitleConversion.convert(srt)

        // Then the text is the spoken words only, and the cues stay within the source's times
        #expect(subtitles.format == .srt)
        #expect(Self.words(subtitles) == "Welcome back to the show, Tom & Jerry are here. Thanks for having us.".split(separator: " ").map(String.init))
        #expect(subtitles.cues.first?.start == 1_000)
        #expect(subtitles.cues.last.map { $0.start >= 7_000 && $0.end <= 9_000 } == true)
        SubtitleInvariants.check(subtitles)
    }

    @Test("WebVTT: the header, notes, styles, identifiers and cue settings are not words; a voice names the speaker")
    func webVTT() throws {
        // Given a WebVTT file with a header, a note, a style block, identifiers, settings and voices
        let vtt = """
            WEBVTT - Episode 12
            Kind: captions

            NOTE This note is not spoken
            and neither is this line.

            STYLE
            ::cue { color: yellow }

            intro
            00:01.000 --> 00:04.000 align:start position:10%
            <v Ana>Hello and <c.yellow>welcome</c> to the show.

            00:00:04.500 --> 00:00:07.000
            <v.loud Ben Li>Glad <00:00:05.000>to be here.
            """

        // When it is converted
        let subtitles = try SubtitleConversion.convert(vtt)

        // Then each voice is its cue's speaker and only the spoken words are shown
        #expect(subtitles.format == .webVTT)
        #expect(subtitles.cues.map { $0.lines.joined(separator: " ") } == [
            "Ana: Hello and welcome to the show.", "Ben Li: Glad to be here.",
        ])
        #expect(subtitles.cues[0].start == 1_000 && subtitles.cues[1].start == 4_500)
        SubtitleInvariants.check(subtitles)
    }

    @Test("An SRT that Episodic wrote reads back with every word, in order")
    func ownSRTReadsBack() throws {
        // Given the SRT of the Zencastr fixture
        let first = try SubtitleConversion.convert(try SubtitleFixtures.transcript(SubtitleFixtures.zencastr))

        // When that SRT is converted as a transcript
        let again = try SubtitleConversion.convert(first.srt)

        // Then the words come back in the same order (speakers' prefixes are text there)
        #expect(again.format == .srt)
        #expect(Self.words(again) == Self.words(first))
        SubtitleInvariants.check(again)
    }
}
