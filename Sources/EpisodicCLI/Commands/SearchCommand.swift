import ArgumentParser
import Episodic

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Find episodes by the words of their titles, descriptions and transcripts.",
        discussion: """
            Case and accents do not count; the last word is a prefix. Matched words are shown between [ and ].
            Episodes whose title or description hold every word come first, then those found through their
            transcripts.

            Examples:
              episodic search merge conflict
              episodic search caller --podcast "Night Shift" --limit 5
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The words to find.") var query: [String]
    @Option(parsing: .unconditional, help: "At most this many results.", transform: NumberArgument.whole(1...Int.max)) var limit = 20
    @Option(help: "Only this podcast's episodes.", completion: .podcastNames) var podcast: String?

    func validate() throws {
        if query.isEmpty { throw ValidationError("Give the words to search for.") }
    }

    /// Columns the match keeps beside the episode's name before the name gives way to the id's prefix.
    static let matchRoom = 26

    func run() throws {
        try Session.run(global) { session in
            let library = try session.library()
            let podcast = try podcast.map { try library.resolve(PodcastReference.text($0)) }
            let results = try library.search(query.joined(separator: " "), in: podcast, limit: limit)
            let (hits, problems) = (results.hits, results.problems)
            if global.json { return session.printJSON(hits.map(SearchHitRecord.init)) }
            // The episode is what a user types back: never cut. As people name it, <podcast>/<number>,
            // unless that leaves the match too little room on this terminal: then by its id's prefix.
            let names = hits.map { hit in
                hit.number.map { "\(hit.podcastName ?? hit.podcastID.description)/\($0)" } ?? String(hit.episodeID.description.prefix(8))
            }
            let byID = Terminal.width.map { width in (names.map { TerminalText($0).width }.max() ?? 0) + Self.matchRoom > width } ?? false
            var table = Table(
                // The match is what a search answers: never left out. The title goes first on a narrow terminal.
                [.init(title: "EPISODE"), .init(title: "TITLE", flexible: true, dropOrder: 1), .init(title: "MATCH", flexible: true, answer: true)]
                    + (global.verbose ? [.init(title: "ID", dropOrder: 0)] : []))
            for (hit, name) in zip(hits, names) {
                table.append([byID ? String(hit.episodeID.description.prefix(8)) : name, hit.title, hit.snippet]
                    + (global.verbose ? [String(hit.episodeID.description.prefix(8))] : []))
            }
            session.printTable(table, empty: "Nothing matches.")
            if !problems.isEmpty {
                Terminal.printError("warning: \(Amount.count(problems.count, "transcript")) could not be indexed (their blobs are missing or damaged); "
                    + "`episodic log verify` says which.")
            }
        }
    }
}
