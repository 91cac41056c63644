import Episodic
import EventLog
import Foundation
import Testing

/// Exports that carry speakers are made by converting again: subtitles an earlier conversion made are
/// not passed off as this one's.
@Suite("Subtitle exports from the facade")
struct SubtitleExportFacadeTests {
    @Test("Subtitles whose SRT the current conversion does not give are exported as SRT, and refused as WebVTT or JSON until converted again")
    func earlierVersion() throws {
        // Given an episode whose recorded SRT is not what this build converts its transcript to
        let studio = try FacadeLibrary()
        let episode = try studio.createEpisode(in: try studio.createPodcast("Show"), "One")
        let transcript = Array("00:00:01\nAna\nHello there, and welcome.\n".utf8)
        try studio.must(.importTranscript(transcript, into: .id(episode)))
        let older = Array("1\n00:00:01,000 --> 00:00:04,000\nAna: Hello there, and welcome.\n\n".utf8)
        let subtitles = SubtitlesRef(blob: BlobStore.reference(for: older), cueCount: 1, transcript: BlobStore.reference(for: transcript))
        try studio.must(Submission(.episode(.id(episode), .recordSubtitles(subtitles)), blobs: [older]))

        // Then SRT is the stored file, WebVTT is refused, and after a convert it is given
        #expect(try studio.library.subtitles(of: .id(episode), as: .srt).bytes == older)
        #expect(throws: LibraryError.subtitlesFromEarlierVersion(episode)) {
            try studio.library.subtitles(of: .id(episode), as: .vtt)
        }
        try studio.must(Submission(.convertTranscript(.id(episode))))
        let vtt = String(decoding: try studio.library.subtitles(of: .id(episode), as: .vtt).bytes, as: UTF8.self)
        #expect(vtt.hasPrefix("WEBVTT\n\n1\n00:00:01.000 --> ") && vtt.contains("<v Ana>Ana: Hello there, and welcome."))
    }
}
