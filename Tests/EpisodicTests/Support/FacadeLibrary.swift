import CoreValues
import Episodic
import EventLog
import Foundation
import GRDB
import PodcastDomain
import Projections
import TestSupport

/// A real library in a temporary folder, driven through the facade as the CLI drives it.
final class FacadeLibrary {
    private let temporary = TemporaryFolder("episodic-facade-test")
    var folder: String { temporary.path }
    let library: Library
    private var clock = TestClock()

    init() throws {
        library = try Library.create(at: temporary.path + "/library")
    }

    /// The next instant: each command a second after the last.
    func tick() -> Timestamp { clock.tick() }

    /// Runs commands that must all be accepted, each its own commit; returns their outcomes.
    @discardableResult
    func must(_ submissions: Submission..., atomic: Bool = false) throws -> [SubmitOutcome] {
        let report = try library.submit(submissions, actor: "tester", atomic: atomic, clock: tick)
        return try report.results.map { try $0.get() }
    }

    @discardableResult
    func undo(_ id: CommandID, force: Bool = false) throws -> SubmitOutcome {
        try library.undo(.command(id), actor: "tester", force: force, clock: tick).outcome!
    }

    // MARK: Commands, briefly

    @discardableResult
    func createPodcast(_ name: String) throws -> PodcastID {
        let id = PodcastID(UUID())
        try must(Submission(.podcast(.id(id), .create(id: id, name: name, at: tick()))))
        return id
    }

    @discardableResult
    func createEpisode(in podcast: PodcastID, _ title: String) throws -> EpisodeID {
        let id = EpisodeID(UUID())
        try must(Submission(.createEpisode(in: .id(podcast), .create(id: id, title: title, at: tick()))))
        return id
    }

    // MARK: What there is

    /// Every entity's state, folded from the whole log.
    func states() throws -> (podcasts: [PodcastID: PodcastState], episodes: [EpisodeID: EpisodeState]) {
        var state = LibraryState()
        try library.readLog(LogFilter()) { state.evolve($0.event) }
        return (state.podcasts, state.episodes)
    }

    /// Every row of every read-model table, as text, but `updated_at`: when a row last changed is the
    /// one thing an undo does not give back (it changes the row again).
    func readModelRows() throws -> [String: [String]] {
        let model = try library.currentReadModel()
        return try model.database.read { db in
            var tables: [String: [String]] = [:]
            for table in model.projectors.flatMap(\.tables) {
                tables[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id").map { row in
                    row.columnNames.filter { $0 != "updated_at" }.map { "\($0)=\(row[$0] as DatabaseValue)" }.joined(separator: " ")
                }
            }
            return tables
        }
    }

    /// A small PNG, as a user would import it.
    static let image: [UInt8] = {
        RepositoryFiles.bytes("Tests/ThumbnailRendererTests/Fixtures/overlay.png")
    }()

    /// A transcript in the hh:mm:ss layout.
    static func transcript(_ words: String) -> [UInt8] {
        Array("00:00:01\nAnn\n\(words)\n\n00:00:05\nBob\nAnd more: \(words).\n".utf8)
    }
}
