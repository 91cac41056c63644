import CoreValues
import DomainTestSupport
import EventLog
import Foundation
import GRDB
import Testing

@testable import Projections

/// `log verify`'s check of the read models: a replay compared row by row, holding what does not grow
/// with the library.
@Suite("Checking the read models against the log")
struct ReadModelCheckTests {
    /// How each connection prepared for a projector maps and caches the files it attached.
    final class Connections: @unchecked Sendable {
        struct Opened {
            var readOnly: Bool
            /// `PRAGMA mmap_size` and `cache_size` of each database file attached, main's included (a
            /// replay's main database is in memory, with no file).
            var mapped: [Int]
            var cache: [Int]
        }

        private let lock = NSLock()
        private var opened: [Opened] = []

        func note(_ db: Database) throws {
            let schemas = try String.fetchAll(db, sql: "SELECT name FROM pragma_database_list WHERE name <> 'temp' AND file <> ''")
            let connection = Opened(
                readOnly: db.configuration.readonly,
                mapped: try schemas.map { try Int.fetchOne(db, sql: "PRAGMA \($0).mmap_size") ?? -1 },
                cache: try schemas.map { try Int.fetchOne(db, sql: "PRAGMA \($0).cache_size") ?? 0 })
            lock.withLock { opened.append(connection) }
        }

        /// The connections noted since the last call.
        func take() -> [Opened] {
            lock.withLock {
                defer { opened = [] }
                return opened
            }
        }
    }

    /// A projector of the library's, that notes each connection prepared for it.
    struct Noting: Projector {
        let base: any Projector
        let connections: Connections
        var name: String { base.name }
        var schemaVersion: Int { base.schemaVersion }
        var tables: [String] { base.tables }
        func write(_ changes: EntityChanges, to db: Database) throws { try base.write(changes, to: db) }
        func prepare(_ db: Database) throws {
            try base.prepare(db)
            try connections.note(db)
        }
    }

    /// A library of `episodes` episodes, each with a transcript of its own, its read models current.
    func library(episodes: Int, connections: Connections) throws -> (ShellWrittenLibrary, ReadModel) {
        let studio = try ShellWrittenLibrary()
        try studio.must(Scene.createShow())
        for n in 1...episodes {
            try studio.must(Scene.createEpisode(n, "Episode \(n)"))
            let words = (0..<1_500).map { "word\(($0 * 7_919 + n * 104_729) % 5_000)" }.joined(separator: " ")
            try studio.must(Scene.importTranscript(n, "00:00:01\nHost\n\(words).\n"))
        }
        let projectors = Projectors.standard(blobs: BlobReader(studio.log.blobs)).map { Noting(base: $0, connections: connections) }
        let readModel = try studio.openReadModel(projectors)
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
        return (studio, readModel)
    }

    @Test("the check reads every page of the read models through connections that map none and cache a fixed number, however large the library")
    func boundedReads() throws {
        var sizes: [Int] = []
        for episodes in [10, 80] {
            // Given a library, and one eight times larger
            let connections = Connections()
            let (studio, readModel) = try library(episodes: episodes, connections: connections)
            sizes.append(try FileManager.default.contentsOfDirectory(atPath: studio.path + "/read").reduce(0) {
                $0 + ((try FileManager.default.attributesOfItem(atPath: studio.path + "/read/" + $1)[.size] as? Int) ?? 0)
            })
            _ = connections.take()

            // When its read models are checked (SQLite's integrity check reads every page, then a replay is
            // compared with them row by row)
            let check = try readModel.check(log: studio.log)

            // Then they agree with the log, and the check read them through connections of its own that map
            // no file (a scan through a map would make every page of it resident) and cache at most 32 MiB
            // of each
            #expect(check.problems.isEmpty && check.differences.isEmpty, "\(check)")
            let opened = connections.take()
            #expect(opened.contains { $0.readOnly && $0.mapped.count == 5 }, "\(opened)")
            #expect(opened.allSatisfy { $0.mapped.allSatisfy { $0 == 0 } }, "\(opened)")
            #expect(opened.allSatisfy { $0.cache.allSatisfy { (-32_768 ..< 0).contains($0) } }, "\(opened)")
        }
        #expect(sizes[1] > 2 * sizes[0], "\(sizes)")
    }
}
