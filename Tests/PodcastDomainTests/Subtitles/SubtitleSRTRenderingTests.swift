import Testing
@testable import PodcastDomain

/// The SRT text itself: layout, timestamps and how the file ends.
@Suite("SRT rendering of subtitle cues")
struct SubtitleSRTRenderingTests {
    @Test("Each cue is number, 'HH:MM:SS,mmm --> HH:MM:SS,mmm', lines, blank line — the last one too")
    func layout() throws {
        // Given a two-turn Zencastr transcript
        let subtitles = try SubtitleConversion.convert(
            "00:01.05\nJames\nHello there, welcome to the show. Today we have a special guest.\n\n01:02:03.40\nFrank\nHi.\n")

        // Then the SRT is exactly this, ending with a blank line after the last cue (and the hour of
        // silence between the turns is left empty)
        #expect(subtitles.srt == """
            1
            00:00:01,050 --> 00:00:05,050
            James: Hello there, welcome to the show.

            2
            00:00:05,050 --> 00:00:08,050
            Today we have a special guest.

            3
            01:02:03,400 --> 01:02:04,233
            Frank: Hi.


            """)
        #expect(subtitles.srt.hasSuffix("Hi.\n\n"))
    }

    @Test("Timestamps are zero-padded, with a third hour digit past 99 hours")
    func timestamps() {
        #expect(SRTRendering.timestamp(0) == "00:00:00,000")
        #expect(SRTRendering.timestamp(3_723_004) == "01:02:03,004")
        #expect(SRTRendering.timestamp(359_999_999) == "99:59:59,999")
        #expect(SRTRendering.timestamp(360_000_000) == "100:00:00,000")
        #expect(SRTRendering.timestamp(-5) == "00:00:00,000")
        #expect(SRTReader.milliseconds("01:02:03,004") == 3_723_004)
    }

    @Test("No cues render as an empty file, and 'Subtitles' always renders its own cues")
    func renderingFollowsCues() {
        #expect(SRTRendering.render([]) == "")
        let cue = SubtitleCue(number: 1, start: 5, end: 10, lines: ["a", "b"], voices: [])
        let subtitles = Subtitles(format: .timeRanges, cues: [cue])
        #expect(subtitles.srt == "1\n00:00:00,005 --> 00:00:00,010\na\nb\n\n")
        #expect(SRTReader.cues(in: subtitles.srt) == [cue])
    }

    @Test("Formats are Codable by their raw names, and every case is listed in error messages")
    func formatNames() {
        #expect(TranscriptFormat.allCases.map(\.rawValue) == ["zencastr", "timestampLines", "timeRanges", "srt", "webVTT"])
        #expect(TranscriptFormat.acceptedFormats.split(separator: "\n").count == 5)
    }
}
