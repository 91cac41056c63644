import Foundation
@testable import PodcastDomain

/// The transcript fixtures and the SRT each one is expected to convert to (`Fixtures/golden`).
///
/// Read from the source tree, so that `EPISODIC_UPDATE_GOLDEN=1 swift test --filter SubtitleFixtureTests`
/// can rewrite the golden files after a deliberate change to the conversion; review the diff before
/// committing it.
enum SubtitleFixtures {
    static let zencastr = "zencastr-excerpt.txt"
    static let timestampLines = "sample-transcript-hhmmss.txt"
    static let timeRanges = "time-range-sample.txt"
    static let whisperSRT = "whisper-sample.srt.txt"
    static let youTubeVTT = "youtube-sample.vtt.txt"
    /// One per input layout.
    static let all = [zencastr, timestampLines, timeRanges, whisperSRT, youTubeVTT]

    static func transcript(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent("transcripts/" + name), encoding: .utf8)
    }

    static func goldenURL(_ name: String) -> URL {
        folder.appendingPathComponent("golden/" + name.split(separator: ".")[0] + ".srt")
    }

    static var updatesGolden: Bool { ProcessInfo.processInfo.environment["EPISODIC_UPDATE_GOLDEN"] == "1" }

    /// This file is Tests/PodcastDomainTests/Subtitles/SubtitleFixtures.swift.
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")
}
