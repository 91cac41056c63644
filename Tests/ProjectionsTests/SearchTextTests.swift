import CoreValues
import DomainTestSupport
import EventLog
import Foundation
import GRDB
import PodcastDomain
import Testing

@testable import Projections

/// The search index keeps no copy of a transcript's text: it reads it from the blob store, and finds and
/// cuts snippets as indexes holding the text would.
@Suite("Search without a copy of the text")
struct SearchTextTests {
    /// Transcripts with words in common, one long enough for snippets to be cut at both ends.
    static let transcripts = [
        "00:00:01\nHost\nWelcome to the show about sourdough starters and rye.\n00:00:09\nAna\nRye needs a warm kitchen.\n",
        "00:00:01\nBo\nKombucha, mostly. Then sourdough again, and a word on Crème brûlée.\n",
        "00:00:01\nHost\n" + (1...60).map { "Line \($0) talks of flour, water and salt." }.joined(separator: " ")
            + " At last the sourdough rises.\n00:05:00\nAna\nAnd the café closes.\n",
    ]

    static let queries = [
        "sourdough", "rye", "kombucha", "brulee", "cafe", "flour salt", "sour", "welcome show", "the", "line 4", "rises",
        "notes", "warm kitchen", "bread", "fermentation brulee", "basics rye", "flour sourdough", "bakery sourdough",
    ]

    /// A library of two shows whose episodes were retitled, described, given transcripts, given new ones,
    /// and deleted; its read models current.
    func corpus() throws -> (ShellWrittenLibrary, ReadModel) {
        let studio = try ShellWrittenLibrary()
        try studio.must(Scene.createShow())
        try studio.must(Scene.createShow(Scene.other, "Bakery"))
        try studio.must(Scene.createEpisode(1, "Sourdough basics"))
        try studio.must(Scene.importTranscript(1, Self.transcripts[0]))
        try studio.must(Scene.createEpisode(2, "Fermentation"))
        try studio.must(Scene.importTranscript(2, Self.transcripts[1]))
        try studio.must(Scene.on(2, .describe("Show notes: kombucha and sourdough")))
        try studio.must(Scene.createEpisode(3, "Flour, water, salt"))
        try studio.must(Scene.importTranscript(3, Self.transcripts[2]))
        try studio.must(Scene.on(3, .retitle("Bread at last")))
        try studio.must(Scene.createEpisode(4, "Rye", in: Scene.other))
        try studio.must(.episode(Scene.episode(4), podcast: Scene.other, .importTranscript(
            bytes: Array(Self.transcripts[0].utf8), ref: TestContent.blob(Self.transcripts[0]))))
        try studio.must(Scene.createEpisode(5, "Gone soon"))
        try studio.must(Scene.importTranscript(5, Self.transcripts[1]))
        try studio.must(Scene.on(5, .delete))
        try studio.must(Scene.on(1, .importTranscript(bytes: Array(Self.transcripts[2].utf8), ref: TestContent.blob(Self.transcripts[2]))))
        let readModel = try studio.openReadModel()
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
        return (studio, readModel)
    }

    @Test("results, ranks and snippets are those of an FTS5 table that holds the text itself")
    func sameAsAnIndexWithTheText() throws {
        // Given a corpus, and beside it indexes that keep their own copy of every field, filled from the
        // domain's live episodes
        let (studio, readModel) = try corpus()
        let texts = Dictionary(uniqueKeysWithValues: Self.transcripts.map { (BlobStore.reference(for: Array($0.utf8)).sha256, $0) })
        let copy = try DatabaseQueue()
        try copy.write { db in
            try db.execute(sql: """
                CREATE VIRTUAL TABLE search_transcripts USING fts5(id UNINDEXED, transcript, tokenize = 'unicode61 remove_diacritics 2');
                CREATE VIRTUAL TABLE search_headings USING fts5(
                    id UNINDEXED, title, description, tokenize = 'unicode61 remove_diacritics 2');
                """)
            for episode in studio.domain.liveEpisodes {
                if let text = episode.transcript.flatMap({ texts[$0.sha256] }) {
                    try db.execute(
                        sql: "INSERT INTO search_transcripts (id, transcript) VALUES (?, ?)", arguments: [episode.id.description, text])
                }
                try db.execute(
                    sql: "INSERT INTO search_headings (id, title, description) VALUES (?, ?, ?)",
                    arguments: [episode.id.description, episode.title, episode.description])
            }
        }

        for query in Self.queries {
            // When both are searched
            let hits = try readModel.search(query)
            let terms = try #require(ReadModel.matchTerms(query))
            let (every, some) = (terms.joined(separator: " "), terms.joined(separator: " OR "))
            // (the episodes whose headings hold every word first; then those whose headings hold some and
            // the transcript the others, ranked by their headings; then those whose transcript holds
            // every word and the headings none)
            let expected = try copy.read { db in
                func ids(_ sql: String, _ match: String) throws -> Set<String> { Set(try String.fetchAll(db, sql: sql, arguments: [match])) }
                let titled = "SELECT id FROM search_headings WHERE search_headings MATCH ?"
                let spoken = "SELECT id FROM search_transcripts WHERE search_transcripts MATCH ?"
                let headings = try Row.fetchAll(db, sql: """
                    SELECT id, title, snippet(search_headings, -1, '[', ']', '…', 16) AS passage,
                        bm25(search_headings, 0, 10, 4) AS score
                    FROM search_headings WHERE search_headings MATCH ? ORDER BY score, id LIMIT 20
                    """, arguments: [every])
                // Each word in the headings or the transcript, some in the headings, not all.
                var both = try ids(titled, some).subtracting(ids(titled, every))
                for term in terms { both.formIntersection(try ids(titled, term).union(ids(spoken, term))) }
                let mixed = try Row.fetchAll(db, sql: """
                    SELECT id, title, bm25(search_headings, 0, 10, 4) AS score,
                        (SELECT snippet(search_transcripts, -1, '[', ']', '…', 16) FROM search_transcripts
                            WHERE search_transcripts MATCH ? AND search_transcripts.id = search_headings.id) AS passage
                    FROM search_headings WHERE search_headings MATCH ? AND id IN (SELECT value FROM json_each(?))
                    ORDER BY score, id
                    """, arguments: [some, some, "[" + both.map { "\"\($0)\"" }.joined(separator: ",") + "]"])
                let unheaded = try ids(titled, some)
                let transcripts = try Row.fetchAll(db, sql: """
                    SELECT id, (SELECT title FROM search_headings WHERE search_headings.id = search_transcripts.id) AS title,
                        snippet(search_transcripts, -1, '[', ']', '…', 16) AS passage, bm25(search_transcripts, 0, 1) AS score
                    FROM search_transcripts WHERE search_transcripts MATCH ? ORDER BY score, id
                    """, arguments: [every]).filter { !unheaded.contains($0["id"]) }
                return Array((headings + mixed + transcripts).prefix(20))
            }
            // Then they find the same episodes, in the same order, with the same ranks and passages
            #expect(hits.map(\.episodeID.description) == expected.map { $0["id"] as String }, "\(query)")
            #expect(hits.map(\.title) == expected.map { $0["title"] as String }, "\(query)")
            #expect(hits.map(\.snippet) == expected.map { ReadModel.oneLine($0["passage"] ?? "") }, "\(query)")
            #expect(hits.map(\.rank) == expected.map { $0["score"] as Double }, "\(query)")
        }
        #expect(try readModel.search("sourdough").count == 4)
        // A passage from far into a long transcript is cut before it.
        #expect(try readModel.search("rises").first?.snippet.hasPrefix("…") == true)
    }

    @Test("a snippet of an SRT or WebVTT transcript shows its words, without cue numbers, timing lines or the header")
    func snippetsWithoutCueMarkup() {
        let srt = "…4\n00:00:09,120 --> 00:00:11,000\nand the [merge] went\n\n5\n00:00:11,500 --> 00:00:13,000\nwell…"
        #expect(ReadModel.oneLine(srt) == "and the [merge] went well…")
        let vtt = "WEBVTT\n\n1\n00:00.500 --> 00:02.000\n<v Ana>[Merge] day\n\n[12]\n00:03.000 --> 00:04.000\nagain"
        #expect(ReadModel.oneLine(vtt) == "<v Ana>[Merge] day again")
        // A Zencastr transcript's times and speakers are its own lines, and stay: they say who spoke when.
        #expect(ReadModel.oneLine("00:01.00\nJames\nWelcome [back]") == "00:01.00 James Welcome [back]")
    }

    @Test("no file of the read models holds a transcript's text; the light fields are there as they were")
    func noCopyOfTheText() throws {
        // Given an episode whose title and transcript hold phrases found nowhere else
        let studio = try ShellWrittenLibrary()
        try studio.must(Scene.createShow())
        try studio.must(Scene.createEpisode(1, "Quietly grand opening titles"))
        try studio.must(Scene.importTranscript(1, "00:00:01\nHost\nQuixotic zebras juggle marmalade at dawn.\n"))

        // When the read models are built, and every connection to them closed (their WALs written back)
        let readModel = try studio.openReadModel()
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
        let hit = try #require(try readModel.search("zebras").first)
        _ = consume readModel

        // Then a search finds the transcript and shows its words, read from the blob
        #expect(hit.snippet.contains("Quixotic [zebras] juggle marmalade"))
        // and the files hold the title but not the transcript's phrase (its words are in the index, in
        // no order a reader could take for the text)
        var bytes = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: studio.path + "/read") {
            bytes += try Data(contentsOf: URL(fileURLWithPath: studio.path + "/read/" + name))
        }
        #expect(bytes.range(of: Data("Quietly grand opening titles".utf8)) != nil)
        #expect(bytes.range(of: Data("zebras juggle".utf8)) == nil)
        #expect(bytes.range(of: Data("Quixotic zebras".utf8)) == nil)
    }
}
