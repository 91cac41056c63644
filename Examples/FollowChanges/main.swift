// An app that embeds Episodic: it keeps its library in an actor, follows every change from the log
// (its own, another process's, or a teammate's on a shared library), and prints each as it lands.
//
//   swift run follow-changes <library folder>      then, in another terminal: episodic podcast create "Night Shift"
//
// It stops after --count changes if given (for a test), else at Ctrl-C.
import Episodic
import Foundation

/// The app's model of the library: what it shows, kept by one actor.
actor Shows {
    private let pool: LibraryPool
    private(set) var names: [PodcastID: String] = [:]

    init(folder: String) throws {
        pool = try LibraryPool(at: folder)
    }

    /// Reads the podcasts' names again: after a change that touched one.
    func reload() async throws {
        let podcasts = try await pool.read { try $0.podcasts() }
        names = Dictionary(uniqueKeysWithValues: podcasts.map { ($0.id, $0.name) })
    }

    func changes(after position: LogPosition) -> LibraryChanges { pool.changes(after: position) }

    func head() async throws -> LogPosition { try await pool.read { $0.head } }
}

let arguments = CommandLine.arguments.dropFirst()
guard let folder = arguments.first else {
    FileHandle.standardError.write(Data("usage: follow-changes <library folder> [--count N]\n".utf8))
    exit(64)
}
let count = arguments.firstIndex(of: "--count").flatMap { arguments.index(after: $0) < arguments.endIndex ? Int(arguments[arguments.index(after: $0)]) : nil }

/// Writes a line at once, into a pipe too: whoever reads it sees each change as it is printed.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let shows = try Shows(folder: folder)
try await shows.reload()
say("following \(folder) from position \(try await shows.head())")
var seen = 0
for try await change in await shows.changes(after: try await shows.head()) {
    if !change.podcasts.isEmpty { try await shows.reload() }
    let names = await shows.names
    let podcasts = change.podcasts.map { "podcast " + (names[$0] ?? "(deleted)") }
    let episodes = change.episodes.isEmpty ? [] : ["\(change.episodes.count) \(change.episodes.count == 1 ? "episode" : "episodes")"]
    say("position \(change.positions.upperBound): \(change.actor) changed " + (podcasts + episodes).joined(separator: ", "))
    seen += 1
    if let count, seen >= count { break }
}
