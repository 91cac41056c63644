import Foundation
@testable import PodcastDomain

/// The transcript fixtures bundled with the tests.
enum SubtitleFixtures {
    static let zencastr = "zencastr-excerpt"
    static let timestampLines = "sample-transcript-hhmmss"
    static let timeRanges = "time-range-sample"

    static func transcript(_ name: String) throws -> String {
        // `.copy("Fixtures")` keeps the folder itself in the bundle.
        guard let url = Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: "Fixtures/transcripts")
        else {
            throw FixtureMissing(name: name)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    struct FixtureMissing: Error { var name: String }
}
