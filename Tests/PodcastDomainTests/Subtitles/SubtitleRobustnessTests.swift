import Foundation
import Testing
@testable import PodcastDomain

/// Transcripts as people actually paste them: other line ends, stray spaces, odd turns.
@Suite("Subtitle conversion of untidy transcripts")
struct SubtitleRobustnessTests {
    private let tidy = "00:01.00\nJames\nHello there.\n\n00:04.50\nFrank\nHi James, how are you?\n"

    @Test("CRLF line ends, a lone CR, trailing spaces and tabs and a byte-order mark change nothing")
    func untidyBytes() throws {
        // Given the same transcript written by Windows, old Macs, sloppy editors and a BOM-writing tool
        let expected = try SubtitleConversion.convert(tidy)
        let variants = [
            tidy.replacingOccurrences(of: "\n", with: "\r\n"),
            tidy.replacingOccurrences(of: "\n", with: "\r"),
            tidy.replacingOccurrences(of: "\n", with: "  \t\n"),
            "\u{FEFF}" + tidy,
            "\u{FEFF}" + tidy.replacingOccurrences(of: "\n", with: " \r\n"),
        ]
        for variant in variants {
            // When each is converted
            let subtitles = try SubtitleConversion.convert(variant)

            // Then the output is the tidy one's
            #expect(subtitles == expected)
        }
        #expect(expected.cues.map(\.lines) == [["James: Hello there."], ["Frank: Hi James, how are you?"]])
    }

    @Test("The fixtures with CRLF line ends and a BOM convert exactly as they are", arguments: [
        SubtitleFixtures.zencastr, SubtitleFixtures.timestampLines, SubtitleFixtures.timeRanges,
    ])
    func windowsFixtures(fixture: String) throws {
        // Given a fixture saved by a Windows editor
        let transcript = try SubtitleFixtures.transcript(fixture)
        let windows = "\u{FEFF}" + transcript.replacingOccurrences(of: "\n", with: " \r\n")

        // When both are converted
        // Then they agree
        #expect(try SubtitleConversion.convert(windows) == SubtitleConversion.convert(transcript))
    }

    @Test("Blank lines anywhere (before everything, after a timestamp, after a speaker, inside text) change nothing")
    func blankLinesAnywhere() throws {
        // Given the tidy transcript with blank lines in every possible place
        let spaced = "\n\n00:01.00\n\nJames\n\n\nHello\n\nthere.\n\n\n\n00:04.50\n   \nFrank\nHi James,\n\nhow are you?\n\n\n"

        // When it is converted
        // Then the text of each turn is joined with single spaces and the speaker still found
        #expect(try SubtitleConversion.convert(spaced) == SubtitleConversion.convert(tidy))
    }

    @Test("Hours past 1 in Zencastr (H:MM:SS.cc) and in timestamp lines")
    func hoursPastOne() throws {
        // Given turns past the second hour in both layouts
        let zencastr = try SubtitleConversion.convert("2:03:04.56\nJames\nLate.\n\n2:03:09.00\nFrank\nVery.\n")
        let lines = try SubtitleConversion.convert("12:00:00\nHost\nLater still.\n\n12:00:05\nGuest\nIndeed.\n")

        // Then the times carry the hours
        #expect(zencastr.format == .zencastr)
        #expect(zencastr.cues[0].start == ((2 * 60 + 3) * 60 + 4) * 1_000 + 560)
        #expect(zencastr.srt.hasPrefix("1\n02:03:04,560 --> 02:03:05,760\n"))
        #expect(zencastr.cues[1].start == ((2 * 60 + 3) * 60 + 9) * 1_000)
        #expect(lines.format == .timestampLines)
        #expect(lines.cues[1].start == 12 * 3_600_000 + 5_000)
    }

    @Test("Zencastr minutes past 59 (75:02.10) are minutes, not an error")
    func minutesPastFiftyNine() throws {
        // Given a Zencastr transcript beyond the first hour, still in MM:SS.cc
        let subtitles = try SubtitleConversion.convert("59:59.90\nJames\nAlmost.\n\n75:02.10\nFrank\nLater.\n")

        // Then 75 minutes are 1 h 15 min
        #expect(subtitles.cues[1].start == 75 * 60_000 + 2_100)
        #expect(subtitles.srt.contains("01:15:02,100 --> "))
    }

    @Test("A turn without a speaker line shows its text unprefixed")
    func missingSpeaker() throws {
        // Given a second turn whose first line is speech (it has a full stop)
        let subtitles = try SubtitleConversion.convert(
            "00:01.00\nJames\nHello.\n\n00:03.00\nNo speaker here, just text.\nAnd more.\n")

        // Then its cue has no prefix and keeps every line
        #expect(subtitles.cues[1].lines == ["No speaker here, just text. And more."])
    }

    @Test("Where every turn has a line after its timestamp and more, that line is the speaker, whatever its shape")
    func speakersByPosition() throws {
        // Given names that the shape rules would read as speech: a dot, three words, lower case, no capitals
        let subtitles = try SubtitleConversion.convert("""
            00:00:01
            Dr. Smith
            Good morning.

            00:00:04
            Mary Jane Watson
            said hello

            00:00:07
            dr. smith
            Hello again.

            00:00:10
            李明
            你好。
            """)

        // Then each is the speaker of its turn, and none is glued onto the speech
        #expect(subtitles.cues.map { $0.lines.joined(separator: " ") } == [
            "Dr. Smith: Good morning.", "Mary Jane Watson: said hello", "dr. smith: Hello again.", "李明: 你好。",
        ])
    }

    @Test("Speech right after the timestamps is speech: the shape rules decide where turns have no speaker lines")
    func noSpeakerLines() throws {
        // Given turns of one line each, straight after their timestamps
        let subtitles = try SubtitleConversion.convert("00:00:01\nWelcome to the show\n\n00:00:04\nThanks for having me\n")

        // Then nothing is read as a speaker
        #expect(subtitles.cues.map(\.lines) == [["Welcome to the show"], ["Thanks for having me"]])
    }

    @Test("Speaker rule: short, capitalised, without . , ? ! — and a trailing colon is dropped")
    func speakerRule() {
        #expect(SpeakerName.from("James") == "James")
        #expect(SpeakerName.from("Host:") == "Host")
        #expect(SpeakerName.from("Speaker 2") == "Speaker 2")
        #expect(SpeakerName.from("Élodie") == "Élodie")
        #expect(SpeakerName.from("james") == nil)
        #expect(SpeakerName.from("Oh.") == nil)
        #expect(SpeakerName.from("Hi!") == nil)
        #expect(SpeakerName.from("Dr. Who") == nil)
        #expect(SpeakerName.from("Well, yes") == nil)
        #expect(SpeakerName.from("Ab Cd Ef") == nil)
        #expect(SpeakerName.from("Abcdefghijklmno Pqrstuvwxyzabc") == nil)  // 30 Characters
        #expect(SpeakerName.from("Abcdefghijklmno Pqrstuvwxyzab") == "Abcdefghijklmno Pqrstuvwxyzab")  // 29
    }

    @Test("An empty turn is skipped, but its time still ends the turn before")
    func emptyTurns() throws {
        // Given a turn with a speaker and no text, and one with nothing at all, between two turns
        let subtitles = try SubtitleConversion.convert(
            "00:01.00\nJames\nHello.\n\n00:05.00\nFrank\n\n00:07.00\n\n00:09.00\nJames\nBye now.\n")

        // Then two cues: the first is shown for its 13 characters at the slowest speech (1.3 s), the
        // second starts at 00:09.00
        #expect(subtitles.cues.count == 2)
        #expect(subtitles.cues[0].start == 1_000 && subtitles.cues[0].end == 2_300)
        #expect(subtitles.cues[1].start == 9_000)
        #expect(subtitles.cues[1].lines == ["James: Bye now."])
    }

    @Test("An empty last turn ends the turn before it: a long one is shown until then, within 7 s")
    func emptyLastTurn() throws {
        // Given transcripts whose last timestamp has no text, 3 s and 29 s after a turn of 60 characters
        let text = "Hello, and welcome to the show that never ends on time."
        let soon = try SubtitleConversion.convert("00:00:01\nHost\n\(text)\n\n00:00:04\nGuest\n")
        let late = try SubtitleConversion.convert("00:00:01\nHost\n\(text)\n\n00:00:30\nGuest\n")

        // Then the cue lasts its 61 characters at the slowest speech (6.1 s) when there is time, and at
        // least their reading time at 20 characters a second (3.05 s) when there is not
        #expect(soon.cues.map { [$0.start, $0.end] } == [[1_000, 4_050]])
        #expect(late.cues.map { [$0.start, $0.end] } == [[1_000, 7_100]])
    }

    @Test("Equal timestamps: two short turns are one two-speaker cue, in order")
    func equalTimestamps() throws {
        // Given two turns stamped 00:00:10 and a third at 00:00:20
        let subtitles = try SubtitleConversion.convert(
            "00:00:10\nHost\nFirst words.\n\n00:00:10\nGuest\nSecond words.\n\n00:00:20\nHost\nThird.\n")

        // Then the first two are shown together from 10 s, one speaker per line, and the third at 20 s
        #expect(subtitles.cues.map(\.lines) == [["- Host: First words.", "- Guest: Second words."], ["Host: Third."]])
        #expect(subtitles.cues.map(\.start) == [10_000, 20_000])
        #expect(subtitles.cues[0].voices.map(\.speaker) == ["Host", "Guest"])
        SubtitleInvariants.check(subtitles)
    }

    @Test("Turns 1 ms apart with long text: every cue is still readable, later cues start when it ends")
    func turnsShorterThanTheirCues() throws {
        // Given a turn needing 3 cues but only 1 ms before the next turn
        let long = Array(repeating: "word", count: 45).joined(separator: " ")
        let transcript = "00:00:01.000 --> 00:00:01.001 \(long)\n00:00:01.001 --> 00:00:01.002 next\n"

        // When it is converted
        let subtitles = try SubtitleConversion.convert(transcript)

        // Then each cue lasts at least 0.833 s, one after the other, the last turn after them
        #expect(subtitles.cues.first?.start == 1_000)
        #expect(subtitles.cues.count == 4)
        for (cue, next) in zip(subtitles.cues, subtitles.cues.dropFirst()) { #expect(cue.end == next.start) }
        #expect(subtitles.cues.last?.text == "next")
        SubtitleInvariants.check(subtitles)
    }

    @Test("The last turn lasts its reading time at 15 characters per second, within 0.833 s … 7 s")
    func lastCueDuration() throws {
        // Given last turns of 2, 59 and 500 characters
        func lastDuration(_ text: String) throws -> Int {
            let cue = try #require(try SubtitleConversion.convert("00:00:05\nHost\n\(text)\n").cues.first)
            return cue.end - cue.start
        }

        // Then a short one gets the 0.833 s minimum, "Host: " and 54 characters (60) get 4 s, none more than 7 s
        #expect(try lastDuration("Ok") == 833)
        #expect(try lastDuration(String(repeating: "abcd ", count: 10) + "abc.") == 4_000)
        let long = try SubtitleConversion.convert("00:00:05\nHost\n" + String(repeating: "word ", count: 100) + "\n")
        #expect(long.cues.allSatisfy { $0.end - $0.start <= 7_000 && $0.end - $0.start >= 833 })
        #expect(long.cues.count > 1)
    }
}
