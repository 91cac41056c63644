import Foundation
import Testing
import TestSupport

/// Slow work on an input (checking a transcript, converting it to subtitles, drawing a thumbnail) is
/// done before the writer lock is taken, never under it: other writers wait only for the decision and
/// the append. Watched from outside as another writer (``LockWatch``): of the command's CPU time, the
/// part spent holding the lock is small.
@Suite("Slow work on inputs is done outside the writer lock")
struct WorkOutsideLockCLITests {
    /// A transcript of about `bytes` bytes in the hh:mm:ss layout, two speakers taking turns.
    static func transcript(bytes: Int) -> String {
        var text = "", second = 0, turn = 0
        let words = "so the idea was that every change becomes an event and the rest is derived from the log again".split(separator: " ")
        while text.utf8.count < bytes {
            text += String(format: "%02d:%02d:%02d\n%@\n", second / 3600, second / 60 % 60, second % 60, turn % 2 == 0 ? "Ana" : "Bo")
            text += words.dropFirst(turn % 7).prefix(12).joined(separator: " ") + ".\n\n"
            second += 4
            turn += 1
        }
        return text
    }

    /// A library with episodes "Show/1" to "Show/3", a background on the first and a transcript of
    /// 300 KB on the second; beside it, a transcript of 3 MB (`large.txt`) and an image (`image.png`).
    static func given() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        for title in ["One", "Two", "Three"] { try cli.must("episode", "create", "Show", title) }
        let image = cli.folder + "/image.png"
        try FileManager.default.copyItem(atPath: RepositoryFiles.path("Tests/ThumbnailRendererTests/Fixtures/overlay.png"), toPath: image)
        try cli.must("thumbnail", "background", "Show/1", RepositoryFiles.path("Tests/ThumbnailRendererTests/Fixtures/scaling-stretch.png"))
        try cli.must("transcript", "import", "Show/2", try cli.write(transcript(bytes: 300_000), to: "medium.txt"))
        _ = try cli.write(transcript(bytes: 3_000_000), to: "large.txt")
        return cli
    }

    struct Case: CustomStringConvertible, Sendable {
        var description: String
        /// The command line; `{folder}` stands for the folder beside the library.
        var arguments: [String]
        /// A script for `submit`, written to `script.jsonl` in that folder.
        var script: [String] = []
    }

    static let cases = [
        Case(description: "transcript import of 3 MB", arguments: ["transcript", "import", "Show/3", "{folder}/large.txt"]),
        Case(description: "transcript convert of 300 KB", arguments: ["transcript", "convert", "Show/2"]),
        Case(description: "a script importing, converting and rendering", arguments: ["submit", "{folder}/script.jsonl"], script: [
            #"{"command":"transcript.import","episode":"Show/3","file":"{folder}/large.txt"}"#,
            #"{"command":"transcript.convert","episode":"Show/3"}"#,
            #"{"command":"thumbnail.render","episode":"Show/1"}"#,
        ]),
        Case(description: "a script converting and rendering what it has just changed", arguments: ["submit", "{folder}/script.jsonl"], script: [
            #"{"command":"transcript.import","episode":"Show/3","file":"{folder}/large.txt"}"#,
            #"{"command":"episode.retitle","episode":"Show/3","title":"Three again"}"#,
            #"{"command":"thumbnail.background","episode":"Show/1","file":"{folder}/image.png"}"#,
            #"{"command":"thumbnail.render","episode":"Show/1"}"#,
            #"{"command":"transcript.import","episode":"Show/2","file":"{folder}/large.txt"}"#,
            #"{"command":"transcript.convert","episode":"Show/2"}"#,
        ]),
    ]

    @Test("a command's slow work on its input is done before it takes the writer lock: at most a quarter of its CPU time under it", arguments: cases)
    func outsideTheLock(_ example: Case) throws {
        // Given a library, and another writer holding its lock whenever the command does not
        let cli = try Self.given()
        func placed(_ text: String) -> String { text.replacingOccurrences(of: "{folder}", with: cli.folder) }
        _ = try cli.write(example.script.map(placed).joined(separator: "\n") + "\n", to: "script.jsonl")

        // When the command runs
        let measured = try LockWatch.measure(cli, example.arguments.map(placed))

        // Then it did its work, most of it before it took the lock (before, all of it was under the lock)
        #expect(measured.run.status == 0, "\(measured.run.err)")
        #expect(measured.total > 0.2, "\(measured.total) s of CPU: too little to tell where it went")
        #expect(measured.locked <= measured.total / 4, "\(measured.locked) s of \(measured.total) s of CPU under the lock")
    }
}
