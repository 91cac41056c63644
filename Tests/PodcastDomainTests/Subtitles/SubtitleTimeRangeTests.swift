import Testing
@testable import PodcastDomain

/// The time-range layout, which the reference app mangles (`-->`) or rejects (milliseconds).
@Suite("Subtitle conversion of time ranges")
struct SubtitleTimeRangeTests {
    @Test("'-->' with milliseconds keeps the milliseconds")
    func arrowWithMilliseconds() throws {
        // Given SRT-style arrows with .mmm fractions
        let subtitles = try SubtitleConversion.convert(
            "00:00:01.250 --> 00:00:03.500 Hello there.\n00:00:04.125 --> 00:00:06.875 Hi.\n")

        // Then the times are exact to the millisecond and the arrow is not part of the text
        #expect(subtitles.format == .timeRanges)
        #expect(subtitles.cues.map(\.shown) == [
            SubtitleCue(number: 1, start: 1_250, end: 3_500, lines: ["Hello there."], voices: []),
            SubtitleCue(number: 2, start: 4_125, end: 6_875, lines: ["Hi."], voices: []),
        ])
        #expect(subtitles.srt == "1\n00:00:01,250 --> 00:00:03,500\nHello there.\n\n2\n00:00:04,125 --> 00:00:06,875\nHi.\n\n")
    }

    @Test("En dash, em dash, hyphen without spaces and a comma fraction are separators and times")
    func separators() throws {
        // Given every separator spelling
        let subtitles = try SubtitleConversion.convert("""
            00:00:01 – 00:00:02 en dash
            00:00:03—00:00:04 em dash
            00:00:05-00:00:06 hyphen
            00:00:07,500 --> 00:00:08,250 comma
            """)

        // Then all four ranges are read (the last, 0.75 s long, is shown for the 0.833 s minimum)
        #expect(subtitles.cues.map(\.text) == ["en dash", "em dash", "hyphen", "comma"])
        #expect(subtitles.cues.map(\.start) == [1_000, 3_000, 5_000, 7_500])
        #expect(subtitles.cues.map(\.end) == [2_000, 4_000, 6_000, 8_333])
    }

    @Test("Text on the next lines belongs to the range above, and a speaker-like line is just text")
    func textOnNextLines() throws {
        // Given a range alone on its line, followed by two lines of text
        let subtitles = try SubtitleConversion.convert("00:00:09 --> 00:00:15\nJames\nsays hello\n\n00:00:15 - 00:00:16 ok\n")

        // Then the text is joined; time ranges have no speaker lines
        #expect(subtitles.cues[0].lines == ["James says hello"])
        #expect(subtitles.cues[0].end == 15_000)
    }

    @Test("A range ending after the next one starts is clipped; one ending earlier keeps its gap")
    func clippingAndGaps() throws {
        // Given an overlapping range, then a range ending before the next one starts
        let subtitles = try SubtitleConversion.convert(
            "00:00:00 - 00:00:10 overlaps\n00:00:05 - 00:00:08 gap after\n00:00:20 - 00:00:25 last\n")

        // Then the first ends at 5 s, the second at its own 8 s, and the last at its given 25 s
        #expect(subtitles.cues.map { [$0.start, $0.end] } == [[0, 5_000], [5_000, 8_000], [20_000, 25_000]])
    }

    @Test("A lone time in a range transcript starts a cue that lasts as long as its speech, by the next start")
    func loneTimeInRanges() throws {
        let subtitles = try SubtitleConversion.convert("00:00:00 - 00:00:02 a\n00:00:03\nb b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b\n00:00:09 - 00:00:10 c\n")
        // "b" × 32 is 63 characters: 6.3 s at the slowest speech, so it ends at the next start, 9 s.
        #expect(subtitles.cues.map { [$0.start, $0.end] } == [[0, 2_000], [3_000, 9_000], [9_000, 10_000]])
    }

    @Test("A text line that merely starts with a time is text, in both layouts")
    func timesInsideText() throws {
        // Given speech mentioning times
        let ranges = try SubtitleConversion.convert("00:00:00 - 00:00:05 We met at\n10:30 and left at 11:00.\n")
        let zencastr = try SubtitleConversion.convert("00:01.00\nJames\n10:30 - 11:00 is our slot.\n")

        #expect(ranges.cues.map(\.text) == ["We met at 10:30 and left at 11:00."])
        #expect(zencastr.cues.map(\.text) == ["James: 10:30 - 11:00 is our slot."])
    }
}
