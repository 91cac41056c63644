import Foundation
import Testing
@testable import PodcastDomain

/// WebVTT and Podcasting 2.0 JSON out: the same cues as the SRT, with the speakers as data.
@Suite("Subtitle exports: WebVTT and Podcasting 2.0 JSON")
struct SubtitleExportTests {
    @Test("The format is chosen by extension, in any case; other names choose none")
    func formatByExtension() {
        #expect(SubtitleFileFormat(fileName: "out/episode.VTT") == .vtt)
        #expect(SubtitleFileFormat(fileName: "episode.json") == .json)
        #expect(SubtitleFileFormat(fileName: "episode.srt") == .srt)
        #expect(SubtitleFileFormat(fileName: "episode.txt") == .txt)
        #expect(SubtitleFileFormat(fileName: "episode.docx") == nil)
        #expect(SubtitleFileFormat(fileName: "my.folder/episode") == nil)
    }

    @Test("Plain text: each speaker's turn one paragraph across its cues, no times, and every spoken word in order")
    func plainText() throws {
        // Given a transcript whose turns run over several cues
        let subtitles = try SubtitleConversion.convert("""
            00:00:01
            Ana
            Welcome back to the show. Today we talk about gardens, and about the long winter that is coming for all of them.

            00:00:09
            Bo
            Thanks, Ana.

            """)
        #expect(subtitles.cues.count > 2, "the first turn spans cues")

        // When it is written as plain text
        let text = String(decoding: SubtitleFileFormat.txt.render(subtitles), as: UTF8.self)

        // Then there are two paragraphs, the speakers named once each, with no time anywhere
        #expect(text == """
            Ana: Welcome back to the show. Today we talk about gardens, and about the long winter that is coming for all of them.

            Bo: Thanks, Ana.

            """)
    }

    @Test("WebVTT: a header, the SRT's cues with '.' fractions, voices as <v Name>, and it reads back word for word", arguments: SubtitleFixtures.all)
    func webVTT(fixture: String) throws {
        // Given a converted fixture
        let subtitles = try SubtitleConversion.convert(try SubtitleFixtures.transcript(fixture))

        // When it is written as WebVTT
        let vtt = String(decoding: SubtitleFileFormat.vtt.render(subtitles), as: UTF8.self)

        // Then each cue is there with its times, and reading the file back gives the same words
        #expect(vtt.hasPrefix("WEBVTT\n\n1\n"))
        for cue in subtitles.cues {
            #expect(vtt.contains("\n\(cue.number)\n" + SRTRendering.timestamp(cue.start, fractionSeparator: ".") + " --> "
                + SRTRendering.timestamp(cue.end, fractionSeparator: ".") + "\n"))
        }
        let again = try SubtitleConversion.convert(vtt)
        #expect(again.format == .webVTT)
        #expect(SubtitleInvariants.spokenWords(again).filter { !$0.hasSuffix(":") }
            == SubtitleFileInputTests.words(subtitles).filter { !$0.hasSuffix(":") })
    }

    @Test("WebVTT: a two-speaker cue names each voice after its dash; & < > are entities")
    func webVTTVoicesAndEntities() throws {
        let subtitles = try SubtitleConversion.convert(
            "00:00.00\nAna\nTom & Jerry <3 this bit of the show, which runs on and on and on.\n\n00:00.50\nBen\nOh.\n\n00:09.00\nAna\nBye.\n")
        let vtt = String(decoding: SubtitleFileFormat.vtt.render(subtitles), as: UTF8.self)
        #expect(vtt.contains("<v Ana>Ana: Tom &amp; Jerry &lt;3"))
        #expect(vtt.contains("\n- <v Ben>Ben: Oh.\n"))
    }

    @Test("JSON: one segment per voice with its speaker, times in seconds and its words; valid JSON", arguments: SubtitleFixtures.all)
    func podcastJSON(fixture: String) throws {
        // Given a converted fixture
        let subtitles = try SubtitleConversion.convert(try SubtitleFixtures.transcript(fixture))

        // When it is written as a Podcasting 2.0 transcript
        let data = Data(SubtitleFileFormat.json.render(subtitles))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let segments = try #require(object["segments"] as? [[String: Any]])

        // Then the segments are the cues' voices, in order
        #expect(object["version"] as? String == "1.0.0")
        let voices = subtitles.cues.flatMap { cue in cue.voices.map { (cue, $0) } }
        #expect(segments.count == voices.count)
        for (segment, (cue, voice)) in zip(segments, voices) {
            #expect(segment["speaker"] as? String == voice.speaker)
            #expect(segment["body"] as? String == voice.text)
            #expect((segment["startTime"] as? Double).map { Int(($0 * 1_000).rounded()) } == cue.start)
            #expect((segment["endTime"] as? Double).map { Int(($0 * 1_000).rounded()) } == cue.end)
        }
    }
}
