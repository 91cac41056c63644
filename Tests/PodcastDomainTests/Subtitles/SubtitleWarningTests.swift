import Testing
@testable import PodcastDomain

/// Small defects in long transcripts are read past, each with a warning naming the line and what was
/// assumed; `strict` refuses them instead.
@Suite("Lenient reading of transcripts, and its warnings")
struct SubtitleWarningTests {
    /// The conversion's warnings as `kind line` pairs, and the words shown.
    private func read(_ transcript: String) throws -> (warnings: [String], words: [String], subtitles: Subtitles) {
        let subtitles = try SubtitleConversion.convert(transcript)
        SubtitleInvariants.check(subtitles)
        return (subtitles.warnings.map { "\($0.kind.rawValue) \($0.line)" }, SubtitleInvariants.spokenWords(subtitles), subtitles)
    }

    @Test("A title and a blank line above the first timestamp are skipped, with one warning naming them")
    func header() throws {
        let (warnings, words, subtitles) = try read("Merge Conflict 109\nTranscript\n\n00:01.00\nJames\nHello there.\n")
        #expect(warnings == ["header 1"])
        #expect(subtitles.warnings[0].message == "\"Merge Conflict 109\" is above the first timestamp; lines 1–2 skipped as a title.")
        #expect(words == ["Hello", "there."])
        #expect(subtitles.format == .zencastr)
    }

    @Test("A timestamp more than 1 s out of order is kept where it appears, at the time above it")
    func outOfOrder() throws {
        let (warnings, words, subtitles) = try read("00:00:10\nHost\nHello.\n\n00:00:05\nGuest\nEarlier?\n\n00:00:20\nHost\nLater.\n")
        #expect(warnings == ["timeOutOfOrder 5"])
        #expect(subtitles.warnings[0].message == "00:00:05.000 is before 00:00:10.000 on line 1; kept where it is, at 00:00:10.000.")
        #expect(words == ["Hello.", "Earlier?", "Later."])
        #expect(subtitles.cues.map(\.start).allSatisfy { $0 >= 10_000 })
        // Within 1 s it is crosstalk, without a warning; time ranges too.
        #expect(try read("00:10.00\nA\nOne.\n\n00:09.20\nB\nTwo.\n").warnings.isEmpty)
        #expect(try read("00:00:10 - 00:00:12 a\n00:00:02 - 00:00:04 b\n").warnings == ["timeOutOfOrder 2"])
    }

    @Test("Damaged timestamps start their turn: bracketed, with the speaker on the line, seconds without minutes, invalid")
    func damagedTimestamps() throws {
        let transcript = """
            00:01.00
            James
            First.

            [00:05.00]
            Frank
            Bracketed.

            00:09.36 Frank
            Speaker on the stamp line.

            8.36
            James
            No minutes.

            00:75.00
            Frank
            Bad seconds.
            """
        let (warnings, words, subtitles) = try read(transcript)
        #expect(warnings == ["damagedTimestamp 5", "damagedTimestamp 9", "damagedTimestamp 12", "damagedTimestamp 16"])
        #expect(words == ["First.", "Bracketed.", "Speaker", "on", "the", "stamp", "line.", "No", "minutes.", "Bad", "seconds."])
        // Each turn is named: none of "Frank", "James" or "8.36" became speech.
        let names = subtitles.cues.flatMap(\.voices).compactMap(\.speaker)
        #expect(Array(Set(names)).sorted() == ["Frank", "James"])
        #expect(subtitles.cues.contains { $0.start == 5_000 })
        #expect(subtitles.warnings[1].message == "a timestamp and \"Frank\" on the same line; read as 00:00:09.360 and the speaker \"Frank\".")
        #expect(subtitles.warnings[2].message.hasSuffix("read as a new turn at 00:00:09.360, the time above it."))
    }

    @Test("A range that ends before it starts is read without its end")
    func rangeEnd() throws {
        let (warnings, words, _) = try read("00:00:10 - 00:00:12 a\n\n00:00:20 --> 00:00:15 b\n00:00:30 - 00:00:31 c\n")
        #expect(warnings == ["rangeEnd 3"])
        #expect(words == ["a", "b", "c"])
    }

    @Test("NUL and other control characters are removed, one warning per line; tabs and line breaks stay")
    func controlCharacters() throws {
        let (warnings, words, subtitles) = try read("00:00:01\nHost\nHel\u{0}lo\tthere \u{1B}[2Jfriends.\n\n00:00:03\nGuest\nHi\u{7F}!\n")
        #expect(warnings == ["controlCharacters 3", "controlCharacters 7"])
        #expect(subtitles.warnings[0].message == "2 control characters (the first U+0000 (NUL)) removed.")
        #expect(words == ["Hello", "there", "[2Jfriends.", "Hi!"])
        #expect(!subtitles.srt.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test("SRT text outside any cue joins the cue above; a damaged timing line starts a cue at the time above")
    func subtitleFiles() throws {
        let srt = "1\n00:00:01,000 --> 00:00:03,000\nHello\n\nthere.\n\n2\n00:00:0X,000 --> 00:00:05,000\nAgain.\n"
        let (warnings, words, _) = try read(srt)
        #expect(warnings == ["textOutsideCue 5", "damagedTimestamp 8"])
        #expect(words == ["Hello", "there.", "Again."])
    }

    @Test("Strict refuses a transcript with defects, listing every one; a clean one passes")
    func strict() throws {
        let transcript = "Show notes\n00:00:10\nHost\nHello.\n\n00:00:05\nGuest\nEarlier?\n"
        #expect {
            try SubtitleConversion.convert(transcript, strict: true)
        } throws: { error in
            guard case .refusedWarnings(let warnings) = error as? TranscriptError else { return false }
            return warnings.map(\.kind) == [.header, .timeOutOfOrder]
                && (error as? TranscriptError)?.description.contains("• line 1: \"Show notes\" is above the first timestamp") == true
        }
        #expect(try SubtitleConversion.convert("00:00:10\nHost\nHello.\n", strict: true).warnings.isEmpty)
    }

    @Test("At most 20 warnings are listed; the rest are counted in one")
    func limit() throws {
        let transcript = (0..<30).map { "00:00:\($0 < 10 ? "0" : "")\($0)\nHost\nWord\u{0} \($0).\n" }.joined(separator: "\n")
        let warnings = try SubtitleConversion.convert(transcript).warnings
        #expect(warnings.count == 21)
        #expect(warnings.last?.kind == .more && warnings.last?.description == "… and 10 more like these.")
    }
}
