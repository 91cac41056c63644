import CoreValues
import DomainTestSupport
import EventLog
import Foundation
import GRDB
import PodcastDomain
import PropertyBased
import Testing

@testable import Projections

@Suite("Search")
struct SearchTests {
    /// A studio with one show and its read models; `current()` catches them up and returns them.
    final class SearchLibrary {
        let library: ShellWrittenLibrary
        let readModel: ReadModel

        init() throws {
            library = try ShellWrittenLibrary()
            readModel = try library.openReadModel()
            try library.must(Scene.createShow())
        }

        func must(_ command: InMemoryLibrary.Command) throws { try library.must(command) }

        func current() throws -> ReadModel {
            try library.log.write { _ in try readModel.catchUp(with: library.log) }
            return readModel
        }

        func titles(_ text: String) throws -> [String] { try current().search(text).map(\.title) }

        /// The blob file of a transcript this studio imported.
        func blobFile(_ text: String) -> String { library.log.blobs.path(for: BlobStore.reference(for: Array(text.utf8))) }
    }

    static let transcript = "00:00:01\nHost\nWelcome to the show about Crème brûlée.\n00:00:09\nAna\nAnd sourdough.\n"

    @Test("titles, descriptions and transcript text are found without case or accents, the term marked")
    func findsEveryField() throws {
        let studio = try SearchLibrary()
        try studio.must(Scene.createEpisode(1, "Café society"))
        try studio.must(Scene.createEpisode(2, "Apples"))
        try studio.must(Scene.on(2, .describe("All about the Zürich orchards")))
        try studio.must(Scene.createEpisode(3, "Bread"))
        try studio.must(Scene.importTranscript(3, Self.transcript))

        #expect(try studio.titles("CAFE") == ["Café society"])
        #expect(try studio.titles("zurich ORCHARDS") == ["Apples"])
        #expect(try studio.titles("creme BRULEE") == ["Bread"])
        #expect(try studio.titles("Sourdough") == ["Bread"])
        #expect(try studio.titles("café apples") == [])

        let hit = try #require(try studio.current().search("cafe").first)
        #expect(hit.episodeID == Scene.episode(1))
        #expect(hit.podcastID == Scene.show)
        #expect(hit.podcastName == "Merge Conflict")
        #expect(hit.snippet == "[Café] society")
        let spoken = try #require(try studio.current().search("sourdough").first)
        #expect(spoken.snippet.contains("[sourdough]"))
        #expect(!spoken.snippet.contains("\n"))
        let described = try #require(try studio.current().search("zurich").first)
        #expect(described.snippet.contains("[Zürich]"))
    }

    @Test("episodes whose headings hold the words come before those that need their transcript; ties go by episode id")
    func ranking() throws {
        // Given an episode that says "sourdough" again and again, but not in its title, and two titled so
        // and one described so
        let studio = try SearchLibrary()
        try studio.must(Scene.createEpisode(1, "Other things"))
        try studio.must(Scene.importTranscript(1, "00:00:01\nHost\n" + String(repeating: "Sourdough, sourdough. ", count: 50) + "\n"))
        try studio.must(Scene.createEpisode(2, "Sourdough"))
        try studio.must(Scene.createEpisode(3, "Sourdough"))
        try studio.must(Scene.createEpisode(4, "Rye"))
        try studio.must(Scene.on(4, .describe("A word on sourdough")))

        // When it is searched for
        let hits = try studio.current().search("sourdough")

        // Then the titles come first (tied, by id), then the description, then the transcript
        #expect(hits.map(\.episodeID) == [Scene.episode(2), Scene.episode(3), Scene.episode(4), Scene.episode(1)])
        #expect(hits[0].rank == hits[1].rank)
        #expect(hits[1].rank < hits[2].rank)
        #expect(try studio.current().search("sourdough", limit: 3).map(\.episodeID) == [Scene.episode(2), Scene.episode(3), Scene.episode(4)])
        #expect(try studio.current().search("sourdough", limit: 1).count == 1)
        #expect(try studio.current().search("sourdough", limit: 0).isEmpty)
        // A search whose words are split between a heading and the transcript finds the episode too.
        #expect(try studio.titles("other sourdough") == ["Other things"])
    }

    @Test("the last word is a prefix, until a space ends it")
    func prefixOfLastWord() throws {
        let studio = try SearchLibrary()
        try studio.must(Scene.createEpisode(1, "Sourdough starters"))
        try studio.must(Scene.createEpisode(2, "Sour notes"))

        #expect(try studio.titles("sour").sorted() == ["Sour notes", "Sourdough starters"])
        #expect(try studio.titles("sour ") == ["Sour notes"])
        #expect(try studio.titles("sta sour") == [])
        #expect(try studio.titles("sourdough sta") == ["Sourdough starters"])
    }

    @Test("a retitle and a new description replace the old words")
    func retitleUpdates() throws {
        let studio = try SearchLibrary()
        try studio.must(Scene.createEpisode(1, "Pilot"))
        try studio.must(Scene.on(1, .describe("Rough cut")))
        #expect(try studio.titles("pilot") == ["Pilot"])

        try studio.must(Scene.on(1, .retitle("Launch day")))
        try studio.must(Scene.on(1, .describe("Final mix")))
        #expect(try studio.titles("pilot") == [])
        #expect(try studio.titles("rough") == [])
        #expect(try studio.titles("launch") == ["Launch day"])
        #expect(try studio.titles("final mix") == ["Launch day"])
    }

    @Test("a replaced transcript replaces the indexed text; a cleared one removes it")
    func transcriptLifecycle() throws {
        let studio = try SearchLibrary()
        try studio.must(Scene.createEpisode(1, "Pilot"))
        try studio.must(Scene.importTranscript(1, "00:00:01\nHost\nTalking about sourdough.\n"))
        #expect(try studio.titles("sourdough") == ["Pilot"])

        try studio.must(Scene.importTranscript(1, "00:00:01\nHost\nTalking about kombucha.\n"))
        #expect(try studio.titles("sourdough") == [])
        #expect(try studio.titles("kombucha") == ["Pilot"])

        try studio.must(Scene.on(1, .clearTranscript))
        #expect(try studio.titles("kombucha") == [])
        #expect(try studio.titles("pilot") == ["Pilot"])
    }

    @Test("deleted episodes disappear, and so do a deleted podcast's; a renamed podcast shows its new name")
    func deletions() throws {
        let studio = try SearchLibrary()
        try studio.must(Scene.createEpisode(1, "Sourdough one"))
        try studio.must(Scene.createEpisode(2, "Sourdough two"))
        try studio.must(Scene.importTranscript(2, Self.transcript))
        try studio.must(Scene.createShow(Scene.other, "Bakery"))
        try studio.must(Scene.createEpisode(3, "Sourdough elsewhere", in: Scene.other))
        #expect(try studio.titles("sourdough").count == 3)

        try studio.must(Scene.on(1, .delete))
        #expect(try Set(studio.titles("sourdough")) == ["Sourdough two", "Sourdough elsewhere"])

        try studio.must(.podcast(Scene.other, .rename("Bakery Hour")))
        #expect(try studio.current().search("elsewhere").first?.podcastName == "Bakery Hour")

        try studio.must(.podcast(Scene.show, .delete))
        #expect(try studio.titles("sourdough") == ["Sourdough elsewhere"])
        #expect(try studio.titles("brulee") == [])
        let rows = try studio.current().dump()
        #expect(rows["search_entries"]?.count == 1)
        #expect(rows["search_podcasts"]?.count == 1)
    }

    @Test(
        "text that is FTS5 syntax is searched for as words, and never throws",
        arguments: [
            "\"", "*", "NEAR(", "-", "AND OR", "\"sour", "sour*", "title:sour", "^sour", "(sour", "sour)", "NOT",
            "a + b", "{title}: x", "\u{0}", "sour\u{0}dough", "'", "", "   ", "\n\t",
        ])
    func hostileInput(_ text: String) throws {
        let studio = try SearchLibrary()
        try studio.must(Scene.createEpisode(1, "Sourdough and other NEAR misses"))
        _ = try studio.current().search(text)
    }

    @Test("operators are plain words: AND finds the word 'and', a dash joins words")
    func operatorsAreWords() throws {
        let studio = try SearchLibrary()
        try studio.must(Scene.createEpisode(1, "Bread and butter"))
        try studio.must(Scene.createEpisode(2, "Well-being"))
        #expect(try studio.titles("AND") == ["Bread and butter"])
        #expect(try studio.titles("bread -butter") == ["Bread and butter"])
        #expect(try studio.titles("well-being") == ["Well-being"])
        #expect(try studio.titles("\"") == [])
        #expect(try studio.titles("  ") == [])
        #expect(ReadModel.matchExpression("say \"hi\" NEAR(") == #""say" """hi""" "NEAR("*"#)
        #expect(ReadModel.matchExpression("- * \u{0}") == nil)
    }

    @Test("a new transcript for an episode whose indexed one has since gone makes the index again; a retitle reads neither")
    func newTranscriptAfterTheBlobWent() throws {
        // Given an episode indexed with its transcript, whose blob then goes
        let studio = try SearchLibrary()
        try studio.must(Scene.createEpisode(1, "Pilot"))
        try studio.must(Scene.importTranscript(1, Self.transcript))
        try studio.must(Scene.createEpisode(2, "Second"))
        try studio.must(Scene.importTranscript(2, "00:00:01\nHost\nKombucha, mostly.\n"))
        #expect(try studio.titles("sourdough") == ["Pilot"])
        try FileManager.default.removeItem(atPath: studio.blobFile(Self.transcript))

        // When it is retitled, the transcript's words stay where they are: a retitle reads no transcript
        try studio.must(Scene.on(1, .retitle("Launch")))
        #expect(try studio.titles("launch") == ["Launch"])
        #expect(try studio.titles("sourdough") == ["Launch"])

        // When it is given a new transcript (the old words can only be removed with the text they came from)
        try studio.must(Scene.importTranscript(1, "00:00:01\nHost\nRye, at last.\n"))

        // Then the index is made again from what can be read, as a replay would make it: the old words
        // are gone, the new ones found, and the other episode keeps its transcript
        #expect(try studio.titles("sourdough") == [])
        #expect(try studio.titles("rye") == ["Launch"])
        #expect(try studio.titles("kombucha") == ["Second"])
        #expect(try studio.current().searchProblems().isEmpty)
        try Self.expectConsistentIndex(studio.readModel)
        let rows = try studio.readModel.dump()
        try studio.readModel.rebuild(["search"], log: studio.library.log)
        #expect(try studio.readModel.dump() == rows)
    }

    @Test("a missing or damaged transcript blob is indexed without its text and reported, until it is restored")
    func unreadableTranscript() throws {
        let studio = try SearchLibrary()
        let other = "00:00:01\nHost\nKombucha, mostly.\n"
        let file = studio.blobFile(Self.transcript)
        try studio.must(Scene.createEpisode(1, "Pilot"))
        try studio.must(Scene.createEpisode(2, "Second"))
        try studio.must(Scene.importTranscript(1, Self.transcript))
        try studio.must(Scene.importTranscript(2, other))
        let saved = try Data(contentsOf: URL(fileURLWithPath: file))
        try FileManager.default.removeItem(atPath: file)
        try Data("not an LZ4 frame".utf8).write(to: URL(fileURLWithPath: studio.blobFile(other)))

        let readModel = try studio.library.openReadModel()
        try readModel.rebuild(["search"], log: studio.library.log)
        #expect(try readModel.search("pilot").map(\.title) == ["Pilot"])
        #expect(try readModel.search("sourdough").isEmpty)
        #expect(try readModel.search("kombucha").isEmpty)
        let problems = try readModel.searchProblems()
        #expect(problems.map(\.episodeID) == [Scene.episode(1), Scene.episode(2)])
        #expect(problems[0].transcript == BlobStore.reference(for: Array(Self.transcript.utf8)).sha256)
        #expect(problems[0].message.contains("missing"))
        #expect(problems[1].message.contains("damaged"))

        // Restored, the next change to the episode indexes the text; clearing the other ends its problem.
        try saved.write(to: URL(fileURLWithPath: file))
        try studio.must(Scene.on(1, .describe("Now with notes")))
        try studio.must(Scene.on(2, .clearTranscript))
        try studio.library.log.write { _ in try readModel.catchUp(with: studio.library.log) }
        #expect(try readModel.search("sourdough").map(\.title) == ["Pilot"])
        #expect(try readModel.searchProblems().isEmpty)
    }

    @Test("a document is numbered one above the highest, so the index's numbers stay close together")
    func documentNumbers() throws {
        let database = try DatabaseQueue()
        try database.write { db in
            try db.execute(sql: SearchProjector(blobs: BlobReader(BlobStore(directory: "/"))).schema())
            #expect(try SearchProjector.nextDocumentNumber(in: db) == 1)
            try db.execute(sql: "INSERT INTO search_documents (id, doc, podcast_id, title) VALUES ('an episode', 41, 'a podcast', 'a title')")
            #expect(try SearchProjector.nextDocumentNumber(in: db) == 42)
        }
    }

    @Test("built step by step, search gives the same rows and the same results as a full replay")
    func stepByStepEqualsReplay() async throws {
        await propertyCheck(count: 40, input: Gen.int(in: 0...Int(Int32.max)).array(of: 5...60)) { choices in
            do {
                let studio = try ShellWrittenLibrary()
                let stepwise = try studio.openReadModel(batchSize: 2)
                for command in [Scene.createShow(), Scene.createShow(Scene.other, "Bakery")] + choices.map(SearchPool.command) {
                    try studio.run(command)
                    try studio.log.write { _ in try stepwise.catchUp(with: studio.log) }
                }
                let rows = try stepwise.dump().filter { $0.key.hasPrefix("search_") }
                let results = try SearchPool.queries.map { try stepwise.search($0) }
                try Self.expectConsistentIndex(stepwise)

                try stepwise.rebuild(["search"], log: studio.log)

                #expect(try stepwise.dump().filter { $0.key.hasPrefix("search_") } == rows)
                #expect(try SearchPool.queries.map { try stepwise.search($0) } == results)
                #expect(rows["search_entries"]?.count == studio.domain.liveEpisodes.count)
                #expect(rows["search_problems"] == [])
                // And each query finds exactly the live episodes with a word that starts with it.
                for (query, hits) in zip(SearchPool.queries, results) {
                    #expect(Set(hits.map(\.episodeID)) == SearchPool.expected(query, in: studio.domain), "\(query)")
                }
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// FTS5's own check that the indexes hold exactly the words of `search_transcript_content` (every
    /// transcript read again from its blob) and of `search_documents`: it throws when a document's words
    /// were not all removed, or not all added.
    static func expectConsistentIndex(_ readModel: ReadModel) throws {
        try readModel.database.write { db in
            try db.execute(sql: "INSERT INTO search_transcripts (search_transcripts, rank) VALUES ('integrity-check', 1)")
            try db.execute(sql: "INSERT INTO search_headings (search_headings, rank) VALUES ('integrity-check', 1)")
        }
    }
}

/// Random commands on what search indexes: a few episodes in two shows, retitled, described, given
/// transcripts, cleared and deleted, so that most runs end with live, searchable episodes.
enum SearchPool {
    static let titles = ["Café society", "Sourdough", "Kombucha hour", "Pilot"]
    static let transcripts = [
        "00:00:01\nHost\nHello, sourdough fans.\n", "00:01.50\nAna\nHi! Kombucha again.\n", "00:00:03\nBo\nCrème brûlée.\n",
    ]
    static let queries = ["sourdough", "cafe", "kombucha", "brulee", "hello", "hi", "pilot", "host", "so", "k"]

    /// The live episodes a one-word query must find: those with a word, in any field, that starts with
    /// it once case and accents are folded.
    static func expected(_ query: String, in domain: InMemoryLibrary) -> Set<EpisodeID> {
        let texts = Dictionary(uniqueKeysWithValues: transcripts.map { (BlobStore.reference(for: Array($0.utf8)), $0) })
        return Set(domain.liveEpisodes.filter { episode in
            let text = [episode.title, episode.description ?? "", episode.transcript.flatMap { texts[$0] } ?? ""].joined(separator: " ")
            let words = TitleFolding.fold(text).split { !$0.isLetter && !$0.isNumber }
            return words.contains { $0.hasPrefix(query) }
        }.map(\.id))
    }

    static func command(from choice: Int) -> InMemoryLibrary.Command {
        var rest = choice
        func pick(_ count: Int) -> Int {
            defer { rest /= count }
            return rest % count
        }
        let kind = pick(20)
        let podcast = [Scene.show, Scene.other][pick(2)]
        let n = 1 + pick(5)
        let title = titles[pick(titles.count)]
        let transcript = transcripts[pick(transcripts.count)]
        switch kind {
        case 0: return .podcast(podcast, .rename(title))
        case 1: return pick(4) == 0 ? .podcast(podcast, .delete) : .podcast(podcast, .describe(title))
        case 2...5: return Scene.createEpisode(n, title, in: podcast)
        case 6...8: return Scene.on(n, .retitle(title))
        case 9, 10: return Scene.on(n, .describe(pick(3) == 0 ? nil : title + " notes"))
        case 11...14: return Scene.importTranscript(n, transcript)
        case 15, 16: return Scene.on(n, .clearTranscript)
        case 17: return Scene.on(n, .delete)
        default: return Scene.on(n, .changeThumbnailText(.custom(title)))
        }
    }
}
