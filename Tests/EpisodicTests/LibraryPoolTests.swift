import Episodic
import Foundation
import TestSupport
import Testing

/// `LibraryPool`: one library shared by the tasks of an app. CI runs this suite under Thread Sanitizer
/// too (`swift test --sanitize=thread --filter LibraryPoolTests`), which reports any data race.
@Suite("A library shared by many tasks")
struct LibraryPoolTests {
    @Test("32 tasks, writes and reads mixed, through one pool: every write lands, every read is whole", .timeLimit(.minutes(5)))
    func manyTasks() async throws {
        // Given a library with one podcast, shared through a pool
        let folder = TemporaryFolder("library-pool")
        _ = try Library.create(at: folder("Shows"))
        let pool = try LibraryPool(at: folder("Shows"))
        let show = PodcastID(UUID())
        _ = try await pool.submit([Submission(.podcast(.id(show), .create(id: show, name: "Night Shift", at: .now)))], actor: "ana")

        // When 16 tasks each create episodes while 16 others list and search them
        let writers = 16, episodesEach = 3
        let counts = try await withThrowingTaskGroup(of: [Int].self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for n in 0..<episodesEach {
                        let report = try await pool.submit(
                            [Submission(.createEpisode(in: .id(show), .create(id: EpisodeID(UUID()), title: "W\(writer) E\(n)", at: .now)))],
                            actor: "writer \(writer)")
                        _ = try report.results[0].get()
                    }
                    return []
                }
            }
            for _ in 0..<16 {
                group.addTask {
                    var seen: [Int] = []
                    for _ in 0..<episodesEach * 2 {
                        seen.append(try await pool.read { try $0.episodes(EpisodeQuery(podcast: show)).count })
                        _ = try await pool.read { try $0.search("W1", in: show) }
                    }
                    return seen
                }
            }
            var all: [[Int]] = []
            for try await seen in group { all.append(seen) }
            return all
        }

        // Then every episode is there, numbered without a gap, and no read saw more than were made
        let episodes = try await pool.read { try $0.episodes(EpisodeQuery(podcast: show, sort: .number)) }
        #expect(episodes.count == writers * episodesEach)
        #expect(episodes.map(\.number) == Array(1...(writers * episodesEach)))
        #expect(Set(episodes.map(\.title)).count == writers * episodesEach)
        for seen in counts where !seen.isEmpty {
            #expect(seen.allSatisfy { $0 <= writers * episodesEach })
            #expect(seen == seen.sorted(), "one reader's answers never go back in time")
        }
    }

    @Test("a change through the pool reaches its followers, and a query's observers")
    func changesThroughThePool() async throws {
        let folder = TemporaryFolder("library-pool")
        _ = try Library.create(at: folder("Shows"))
        let pool = try LibraryPool(at: folder("Shows"))
        var changes = pool.changes(after: .none).makeAsyncIterator()
        var names = pool.observe { try $0.podcasts().map(\.name) }.makeAsyncIterator()
        #expect(try await names.next()?.value == [])

        let show = PodcastID(UUID())
        _ = try await pool.submit([Submission(.podcast(.id(show), .create(id: show, name: "Night Shift", at: .now)))], actor: "ana")
        let change = try #require(try await changes.next())
        #expect(change.podcasts == [show] && change.actor == "ana")
        #expect(try await names.next()?.value == ["Night Shift"])
    }

    @Test("commands submitted together are committed together, each its own: a refusal is its task's alone", .timeLimit(.minutes(5)))
    func groupedCommandsKeepTheirOwnOutcome() async throws {
        // Given a podcast
        let folder = TemporaryFolder("library-pool")
        _ = try Library.create(at: folder("Shows"))
        let pool = try LibraryPool(at: folder("Shows"))
        let show = PodcastID(UUID())
        _ = try await pool.submit([Submission(.podcast(.id(show), .create(id: show, name: "Night Shift", at: .now)))], actor: "ana")

        // When 24 tasks at once each create an episode, 8 of them all asking for number 7
        let reports = try await withThrowingTaskGroup(of: (Bool, SubmitReport).self) { group in
            for task in 0..<24 {
                group.addTask {
                    let seven = task % 3 == 0
                    let create = EpisodeCommand.create(id: EpisodeID(UUID()), title: "T\(task)", number: seven ? 7 : 100 + task, at: .now)
                    return (seven, try await pool.submit([Submission(.createEpisode(in: .id(show), create))], actor: task % 2 == 0 ? "ana" : "ben"))
                }
            }
            var all: [(Bool, SubmitReport)] = []
            for try await report in group { all.append(report) }
            return all
        }

        // Then each task has one result of its own: one number 7 taken, the other seven refused, every other made
        #expect(reports.allSatisfy { $0.1.results.count == 1 })
        let sevens: [Result<SubmitOutcome, SubmitFailure>] = reports.filter(\.0).map { $0.1.results[0] }
        var refused: [SubmitFailure] = []
        for case .failure(let failure) in sevens { refused.append(failure) }
        #expect(refused.count == 7)
        #expect(refused.allSatisfy { $0.index == 0 && $0.kind == .refused })
        let others: [Result<SubmitOutcome, SubmitFailure>] = reports.filter { !$0.0 }.map { $0.1.results[0] }
        #expect(others.allSatisfy { if case .success = $0 { true } else { false } })
        #expect(try await pool.read { try $0.episodes(EpisodeQuery(podcast: show)).count } == 17)
    }
}
