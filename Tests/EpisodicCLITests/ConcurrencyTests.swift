import EventLog
import Foundation
import Testing

/// Several `episodic` processes at once on one library.
@Suite("Concurrent processes")
struct ConcurrencyTests {
    @Test("two processes submitting at once: every command lands, numbers stay unique, the read model agrees")
    func twoSubmitters() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Busy")
        // Each creates 40 episodes without numbers: each command reads the highest number under the lock.
        let script = (1...40).map { #"{"command":"episode.create","podcast":"Busy","title":"T\#($0)"}"# }.joined(separator: "\n")
        let running = try (0..<2).map { try cli.start(["submit", "--actor", "writer\($0)"], input: script) }
        for result in running.map({ $0.finish() }) {
            #expect(result.status == 0, "\(result.err)")
        }

        let episodes = try cli.list("episode", "list", "Busy", "--sort", "number")
        #expect(episodes.map { $0["number"] as! Int } == Array(1...80))
        let events = try EventLog(at: cli.library).events()
        #expect(events.map(\.position.rawValue) == Array(1...81))
        // Both really ran at once: their commits interleave.
        let actors = events.dropFirst().map(\.actor)
        #expect(zip(actors, actors.dropFirst()).contains { $0 != $1 })
        #expect(actors.filter { $0 == "writer0" }.count == 40)
    }

    @Test("queries while another process writes: every one answers, none is refused for a locked database")
    func readersBesideAWriter() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Busy")
        let script = (1...60).map { #"{"command":"episode.create","podcast":"Busy","title":"T\#($0)"}"# }.joined(separator: "\n")
        let writer = try cli.start(["submit"], input: script)
        var readers: [CLI.Run] = []
        for _ in 0..<12 {
            readers += [try cli.start(["episode", "list", "Busy", "--json"]), try cli.start(["podcast", "list"])].map { $0.finish() }
        }
        #expect(writer.finish().status == 0)
        for reader in readers { #expect(reader.status == 0, "\(reader.err)") }
        #expect(try cli.list("episode", "list", "Busy").count == 60)
    }
}
