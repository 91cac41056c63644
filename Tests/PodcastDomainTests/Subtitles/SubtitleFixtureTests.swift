import Testing
@testable import PodcastDomain

/// The three transcript fixtures, converted end to end.
@Suite("Subtitle conversion of the transcript fixtures")
struct SubtitleFixtureTests {
    @Test("Zencastr excerpt: 60 turns become 88 wrapped cues, each turn's first cue named")
    func zencastrExcerpt() throws {
        // Given the Zencastr excerpt (MM:SS.cc, speaker, text; one turn steps back 30 ms)
        let transcript = try SubtitleFixtures.transcript(SubtitleFixtures.zencastr)

        // When it is converted
        let subtitles = try SubtitleConversion.convert(transcript)

        // Then every turn is shown, long ones over several cues, and the last one for its reading time
        #expect(subtitles.format == .zencastr)
        #expect(subtitles.cues.count == 88)
        #expect(subtitles.cues.first == SubtitleCue(
            number: 1, start: 290, end: 3_178,
            lines: ["James: Welcome back everyone to Merge", "Conflict, your weekly developer"]))
        #expect(subtitles.cues.last == SubtitleCue(
            number: 88, start: 211_386, end: 216_252,
            lines: ["necessarily a survey. It's like stats.", "And I like stats. I like numbers."]))
        let named = subtitles.cues.filter { $0.lines[0].hasPrefix("James: ") || $0.lines[0].hasPrefix("Frank: ") }
        #expect(named.count == 60)
        SubtitleInvariants.check(subtitles)
    }

    @Test("Zencastr crosstalk: a turn stamped 30 ms before the previous one follows it, both visible")
    func zencastrCrosstalk() throws {
        // Given the excerpt, where 03:07.96 (line 213) comes after 03:07.99 (line 209)
        let subtitles = try SubtitleConversion.convert(try SubtitleFixtures.transcript(SubtitleFixtures.zencastr))

        // When the two turns' cues are found
        let frank = try #require(subtitles.cues.first { $0.text.hasPrefix("Frank: Well, somehow") })
        let james = try #require(subtitles.cues.first { $0.text == "James: Living off of Red Bulls." })

        // Then they share 03:07.99 … 03:12.47 in transcript order, each shown for a readable time
        #expect(frank.start == 187_990)
        #expect(james.end == 192_470)
        #expect(james.number == frank.number + 2)
        #expect(james.end - james.start > 500)
    }

    @Test("Timestamp lines (HH:MM:SS, no fraction): 23 turns become 52 cues, Host and Guest named")
    func timestampLinesSample() throws {
        // Given the sample the reference app rejects
        let transcript = try SubtitleFixtures.transcript(SubtitleFixtures.timestampLines)

        // When it is converted
        let subtitles = try SubtitleConversion.convert(transcript)

        // Then every turn starts exactly at its timestamp and ends when the next begins
        #expect(subtitles.format == .timestampLines)
        #expect(subtitles.cues.count == 52)
        #expect(subtitles.cues.first == SubtitleCue(
            number: 1, start: 0, end: 6_571,
            lines: ["Host: Welcome everyone to Tech Talk,", "episode 42! I'm your host, Sarah, and"]))
        #expect(subtitles.cues[2] == SubtitleCue(
            number: 3, start: 10_000, end: 15_000,
            lines: ["Guest: Thanks for having me,", "Sarah! I'm excited to be here."]))
        #expect(subtitles.cues.last == SubtitleCue(
            number: 52, start: 469_666, end: 472_266, lines: ["review. Until next time, happy coding!"]))
        let named = subtitles.cues.filter { $0.lines[0].hasPrefix("Host: ") || $0.lines[0].hasPrefix("Guest: ") }
        #expect(named.count == 23)
        SubtitleInvariants.check(subtitles)
    }

    @Test("Time ranges: '-', '-->' with text on the next line, milliseconds and an en dash all read")
    func timeRangeSample() throws {
        // Given the time-range sample
        let transcript = try SubtitleFixtures.transcript(SubtitleFixtures.timeRanges)

        // When it is converted
        let subtitles = try SubtitleConversion.convert(transcript)

        // Then the given ends are kept (a gap included), and the long second range is split in two
        #expect(subtitles.format == .timeRanges)
        #expect(subtitles.cues.count == 6)
        #expect(subtitles.cues.first == SubtitleCue(
            number: 1, start: 0, end: 4_000,
            lines: ["Welcome to Release Notes, the", "show about shipping software."]))
        #expect(subtitles.cues[1].start == 4_000 && subtitles.cues[2].end == 9_000)
        #expect(subtitles.cues[3] == SubtitleCue(
            number: 4, start: 9_000, end: 15_000,
            lines: ["Our guest maintains a storage engine that", "has never lost an acknowledged write."]))
        #expect(subtitles.cues[4].start == 15_250 && subtitles.cues[4].end == 21_900)
        #expect(subtitles.cues.last == SubtitleCue(
            number: 6, start: 22_000, end: 30_000,
            lines: ["It is a file you only ever add to, so a", "crash can damage at most the last record."]))
        SubtitleInvariants.check(subtitles)
    }

    @Test("Round trip: reading the SRT output's timestamps gives back every fixture's cue times", arguments: [
        SubtitleFixtures.zencastr, SubtitleFixtures.timestampLines, SubtitleFixtures.timeRanges,
    ])
    func roundTrip(fixture: String) throws {
        // Given a converted fixture
        let subtitles = try SubtitleConversion.convert(try SubtitleFixtures.transcript(fixture))

        // When its SRT text is read back by an independent reader
        let read = try #require(SRTReader.cues(in: subtitles.srt))

        // Then the numbers, times and lines are the cues'
        #expect(read.map(\.start) == subtitles.cues.map(\.start))
        #expect(read.map(\.end) == subtitles.cues.map(\.end))
        #expect(read == subtitles.cues)
    }
}
