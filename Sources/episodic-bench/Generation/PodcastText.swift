import CoreValues

/// The words of podcast titles and descriptions, so that payloads have the length and the repetition of
/// real text, which is what LZ4 sees. None of them holds a character JSON would escape.
enum PodcastText {
    static let actors = ["ana", "ben", "chloe", "dmitri", "import-script"]

    private static let showWords = [
        "Night Shift", "Signal", "Long Form", "Deep Dive", "Open Studio", "Field Notes", "Second Draft",
        "Quiet Hour", "Common Ground", "Loose Ends", "Backstage", "Small Print", "Slow News", "Side Quest",
    ]
    private static let showKinds = ["Podcast", "Radio", "Hour", "Weekly", "Sessions", "Conversations", "Show"]

    private static let subjects = [
        "remote interviews", "sound design", "local elections", "open source maintainers", "urban gardening",
        "the history of radio", "microphone placement", "indie game studios", "sleep science", "public libraries",
        "jazz records", "long-distance cycling", "climate adaptation", "small business taxes", "community theatre",
        "machine translation", "fermentation", "the night bus", "archival footage", "first-time founders",
    ]
    private static let angles = [
        "Why", "How", "What Nobody Tells You About", "The Quiet Art of", "Rethinking", "A Beginner's Guide to",
        "The Hidden Cost of", "Ten Years of", "Inside", "Getting Started With",
    ]
    private static let guests = [
        "Maya Okafor", "Tom Brennan", "Lucia Ferraz", "Kenji Watanabe", "Priya Raman", "Jonas Lindqvist",
        "Amara Diallo", "Sofia Marquez", "Owen Clarke", "Hana Kim",
    ]
    private static let closings = [
        "We also answer listener questions from the mailbag.",
        "Stay until the end for a short update on the live show.",
        "Show notes and links are on the episode page.",
        "Thanks to everyone who sent in voice memos this week.",
        "",
    ]

    static func podcastTitle(using random: inout SplitMix64) -> String {
        "The \(showWords.randomElement(using: &random)!) \(showKinds.randomElement(using: &random)!)"
    }

    static func episodeTitle(number: Int, using random: inout SplitMix64) -> String {
        let subject = subjects.randomElement(using: &random)!.split(separator: " ")
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        return "Episode \(number): \(angles.randomElement(using: &random)!) \(subject)"
    }

    /// One or two sentences, as hosts write them.
    static func description(using random: inout SplitMix64) -> String {
        let guest = guests.randomElement(using: &random)!
        let first = subjects.randomElement(using: &random)!, second = subjects.randomElement(using: &random)!
        let opening = "\(guest) joins us to talk about \(first), and what it has in common with \(second)."
        let closing = closings.randomElement(using: &random)!
        return closing.isEmpty ? opening : opening + " " + closing
    }
}
