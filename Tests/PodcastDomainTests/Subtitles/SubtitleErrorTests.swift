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

    @Test("More than 20 lines before the first timestamp is an unknown format, naming the first line")
    func unknownFormat() {
        // Given 21 lines of prose before a timestamp, and a file whose only timestamp-like line is invalid
        let essay = (1...21).map { "Paragraph \($0) of the show notes." }.joined(separator: "\n") + "\n00:00:01\nHost\nHello.\n"
        let invalid = "00:75.00\nJames\nHi.\n"

        // Then the error points at the first line
        #expect(error(converting: essay) == .unrecognizedFormat(line: 1, text: "Paragraph 1 of the show notes."))
        #expect(error(converting: invalid) == .unrecognizedFormat(line: 1, text: "00:75.00"))
        let message = TranscriptError.unrecognizedFormat(line: 1, text: "Paragraph 1 of the show notes.").description
        #expect(message.hasPrefix("Line 1 (\"Paragraph 1 of the show notes.\") is not a timestamp"))
        #expect(message.contains("Zencastr") && message.contains("Timestamp lines") && message.contains("Time ranges"))
    }

    @Test("Timestamps with no text at all are 'no text'")
    func noText() {
        #expect(error(converting: "00:00:01\nHost\n\n00:00:05\nGuest\n\n") == .noText)
        #expect(error(converting: "00:00:01 --> 00:00:02\n") == .noText)
    }
}
