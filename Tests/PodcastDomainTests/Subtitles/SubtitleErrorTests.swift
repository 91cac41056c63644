import Testing
@testable import PodcastDomain

/// Transcripts that cannot become subtitles, and what the user is told.
@Suite("Subtitle conversion errors")
struct SubtitleErrorTests {
    private func error(converting transcript: String) -> TranscriptError? {
        do {
            _ = try SubtitleConversion.convert(transcript)
            return nil
        } catch {
            return error
        }
    }

    @Test("Empty or whitespace-only input is 'empty', and the message lists the three formats")
    func empty() {
        // Given nothing, and only blanks and line ends
        for transcript in ["", "   ", "\n\n\r\n \t \n", "\u{FEFF}"] {
            // Then the error is .empty
            #expect(error(converting: transcript) == .empty)
        }
        let message = TranscriptError.empty.description
        #expect(message.contains("Zencastr") && message.contains("Timestamp lines") && message.contains("Time ranges"))
    }

    @Test("Text without any timestamp is 'no timestamps', whatever it contains")
    func noTimestamps() {
        // Given prose, prose mentioning times, and JSON
        let transcripts = [
            "Hello world.\nThis is a transcript without times.",
            "We met at 10:30 and left at 11:00.\nSee you.",
            "{\"segments\": [{\"start\": 0.5, \"text\": \"hi\"}]}",
        ]
        for transcript in transcripts {
            #expect(error(converting: transcript) == .noTimestamps)
        }
        #expect(TranscriptError.noTimestamps.description.contains("00:12:34 - 00:12:40"))
    }

    @Test("A transcript not starting with a timestamp is an unknown format, naming the first line")
    func unknownFormat() {
        // Given a title before the first timestamp, and a number that is not an SRT cue's (no timing follows)
        let titled = "\n\nEpisode 42: the transcript\n00:00:01\nHost\nHello.\n"
        let numbered = "1\nHello.\n00:00:01,000 --> 00:00:02,000\n\n"

        // Then the error points at that line
        #expect(error(converting: titled) == .unrecognizedFormat(line: 3, text: "Episode 42: the transcript"))
        #expect(error(converting: numbered) == .unrecognizedFormat(line: 1, text: "1"))
        let message = TranscriptError.unrecognizedFormat(line: 3, text: "Episode 42: the transcript").description
        #expect(message.hasPrefix("Line 3 (\"Episode 42: the transcript\") is not a timestamp"))
        #expect(message.contains("Zencastr") && message.contains("Timestamp lines") && message.contains("Time ranges"))
    }

    @Test("A timestamp that goes backwards is an error naming its line and the earlier one")
    func backwards() {
        // Given a turn at 00:00:05 after one at 00:00:10
        let transcript = "00:00:10\nHost\nHello.\n\n00:00:05\nGuest\nEarlier?\n"

        // Then the error names line 5 and line 1
        let found = error(converting: transcript)
        #expect(found == .timeGoesBackwards(line: 5, time: 5_000, previousLine: 1, previousTime: 10_000))
        #expect(found?.description
            == "Line 5: the time 00:00:05.000 is before 00:00:10.000 on line 1. Times must not go backwards; "
            + "correct the timestamp on line 5 or on line 1.")
    }

    @Test("Backwards by more than 1 s is an error even after crosstalk; within 1 s it is crosstalk")
    func backwardsTolerance() {
        // Given 10.00, then 9.20 (crosstalk), then 8.90 (1.1 s before the 10.00 it was moved to)
        let transcript = "00:10.00\nA\nOne.\n\n00:09.20\nB\nTwo.\n\n00:08.90\nC\nThree.\n"

        // Then the third turn is refused, compared with the 10.00 written on line 1
        #expect(error(converting: transcript)
            == .timeGoesBackwards(line: 9, time: 8_900, previousLine: 1, previousTime: 10_000))
        #expect(error(converting: "00:10.00\nA\nOne.\n\n00:09.00\nB\nTwo.\n") == nil)
        #expect(error(converting: "00:10.00\nA\nOne.\n\n00:08.99\nB\nTwo.\n") != nil)
    }

    @Test("Time ranges going backwards, or ending before they start, are errors naming the line")
    func backwardsRanges() {
        #expect(error(converting: "00:00:10 - 00:00:12 a\n00:00:02 - 00:00:04 b\n")
            == .timeGoesBackwards(line: 2, time: 2_000, previousLine: 1, previousTime: 10_000))
        #expect(error(converting: "00:00:10 - 00:00:12 a\n\n00:00:20 --> 00:00:15 b\n")
            == .rangeEndsBeforeStart(line: 3, start: 20_000, end: 15_000))
        #expect(error(converting: "00:00:10 - 00:00:10 a\n")
            == .rangeEndsBeforeStart(line: 1, start: 10_000, end: 10_000))
    }

    @Test("A line that is only an invalid time is reported, not read as a speaker or as text")
    func malformedTimestamps() {
        #expect(error(converting: "00:75.00\nJames\nHi.\n") == .malformedTimestamp(line: 1, text: "00:75.00"))
        #expect(error(converting: "00:00:01\nHost\nHi.\n\n00:0:05\nGuest\nYo.\n")
            == .malformedTimestamp(line: 5, text: "00:0:05"))
        #expect(error(converting: "00:00:01 - 00:00:75 Hi.\n")
            == .malformedTimestamp(line: 1, text: "00:00:01 - 00:00:75 Hi."))
    }

    @Test("Timestamps with no text at all are 'no text'")
    func noText() {
        #expect(error(converting: "00:00:01\nHost\n\n00:00:05\nGuest\n\n") == .noText)
        #expect(error(converting: "00:00:01 --> 00:00:02\n") == .noText)
    }
}
