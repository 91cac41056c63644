import Foundation
import Testing
@testable import PodcastDomain

/// The transcript fixtures, one per input layout, converted end to end and compared with their golden
/// SRT files.
@Suite("Subtitle conversion of the transcript fixtures")
struct SubtitleFixtureTests {
    @Test("Each fixture converts to its golden SRT, byte for byte", arguments: SubtitleFixtures.all)
    func golden(fixture: String) throws {
        // Given a fixture and the SRT it converted to when the conversion was last changed on purpose
        let subtitles = try SubtitleConversion.convert(try SubtitleFixtures.transcript(fixture))
        let url = SubtitleFixtures.goldenURL(fixture)
        if SubtitleFixtures.updatesGolden { try Data(subtitles.srt.utf8).write(to: url) }

        // Then the conversion gives exactly that file, and keeps its promises
        let golden = try String(contentsOf: url, encoding: .utf8)
        #expect(subtitles.srt == golden, "\(fixture) no longer converts to \(url.lastPathComponent)")
        SubtitleInvariants.check(subtitles)
    }

    @Test("Zencastr excerpt: every turn's first cue is named, and no cue is shorter than 0.833 s or longer than 7 s")
    func zencastrExcerpt() throws {
        // Given the Zencastr excerpt (MM:SS.cc, speaker, text; one turn steps back 30 ms)
        let subtitles = try SubtitleConversion.convert(try SubtitleFixtures.transcript(SubtitleFixtures.zencastr))

        // Then the 60 turns are named, by a prefix or in a two-speaker cue
        #expect(subtitles.format == .zencastr)
        let named = subtitles.cues.flatMap(\.lines).filter {
            ["James: ", "Frank: ", "- James: ", "- Frank: "].contains(where: $0.hasPrefix)
        }
        #expect(named.count == 60)
        #expect(subtitles.cues.allSatisfy { (833...7_000).contains($0.end - $0.start) })
    }

    @Test("Zencastr crosstalk: 'Oh.' said during a sentence shares that sentence's last cue, one speaker per line")
    func zencastrCrosstalk() throws {
        // Given the excerpt, where James's "Oh." (00:58.93) comes 0.3 s into Frank's long turn
        let subtitles = try SubtitleConversion.convert(try SubtitleFixtures.transcript(SubtitleFixtures.zencastr))

        // When the cue holding it is found
        let cue = try #require(subtitles.cues.first { $0.lines.last == "- James: Oh." })

        // Then Frank's words end on the line above it, and the sentence before had time to be read
        #expect(cue.lines.count == 2 && cue.lines[0].hasPrefix("- "))
        #expect(cue.voices.map(\.speaker) == ["Frank", "James"])
        let before = subtitles.cues[cue.number - 2]
        #expect(Double(before.text.count) / Double(before.end - before.start) * 1_000 <= 20)
    }

    @Test("Timestamp lines (HH:MM:SS, no fraction): the first turn starts at its timestamp, Host and Guest named")
    func timestampLinesSample() throws {
        let subtitles = try SubtitleConversion.convert(try SubtitleFixtures.transcript(SubtitleFixtures.timestampLines))
        #expect(subtitles.format == .timestampLines)
        #expect(subtitles.cues.first?.start == 0)
        #expect(subtitles.cues.filter { $0.lines[0].hasPrefix("Host: ") || $0.lines[0].hasPrefix("Guest: ") }.count == 23)
    }

    @Test("Time ranges: cues start within their ranges, and a gap between ranges stays a gap")
    func timeRangeSample() throws {
        let subtitles = try SubtitleConversion.convert(try SubtitleFixtures.transcript(SubtitleFixtures.timeRanges))
        #expect(subtitles.format == .timeRanges)
        #expect(subtitles.cues.first?.start == 0)
        // 00:00:15.000 ends a range and the next starts at 00:00:15.250.
        #expect(subtitles.cues.contains { $0.start == 15_250 })
    }

    @Test("Round trip: reading the SRT output back gives every fixture's cue times and lines", arguments: SubtitleFixtures.all)
    func roundTrip(fixture: String) throws {
        // Given a converted fixture
        let subtitles = try SubtitleConversion.convert(try SubtitleFixtures.transcript(fixture))

        // When its SRT text is read back by an independent reader
        let read = try #require(SRTReader.cues(in: subtitles.srt))

        // Then the numbers, times and lines are the cues'
        #expect(read == subtitles.cues.map(\.shown))
    }
}
