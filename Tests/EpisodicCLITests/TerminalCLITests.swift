import Foundation
import Testing
import TestSupport

/// What people see on a terminal: a pager for the log, and nothing wider than the terminal. The
/// command runs on a real pseudo-terminal (`script`), of the width set with `stty`.
@Suite("On a terminal: the log's pager, and output that fits 60 columns")
struct TerminalCLITests {
    /// Runs `episodic arguments...` with stdout on a terminal `columns` wide; its output, lines
    /// without the terminal's carriage returns.
    private static func onTerminal(_ cli: CLI, columns: Int, _ arguments: [String], environment: [String: String] = [:]) throws -> [String] {
        try raw(cli, columns: columns, arguments, environment: environment).replacingOccurrences(of: "\r", with: "")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    /// What the terminal received, stdout and stderr, as it came.
    private static func raw(
        _ cli: CLI, columns: Int, _ arguments: [String], environment: [String: String] = [:], status: Int32 = 0
    ) throws -> String {
        let quoted = ([CLI.binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "stty cols \(columns) rows 50; exec \(quoted.joined(separator: " "))", "/dev/null"]
        process.environment = cli.environment.merging(environment) { $1 }.merging(["PATH": "/usr/bin:/bin", "TERM": "dumb"]) { old, _ in old }
        process.currentDirectoryURL = URL(fileURLWithPath: cli.folder)
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == status, "\(arguments): \(String(decoding: data, as: UTF8.self))")
        return String(decoding: data, as: UTF8.self)
    }

    private static func library() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "The Extremely Long Named Late Night Radio Programme")
        for title in ["An Episode Whose Title Goes On And On Past Any Narrow Terminal", "Short"] {
            try cli.must("episode", "create", "The Extremely Long Named Late Night Radio Programme", title)
        }
        try cli.must("transcript", "import", "The Extremely Long Named Late Night Radio Programme/2", Fixtures.transcripts + "/zencastr-excerpt.txt")
        return cli
    }

    @Test("log goes through $PAGER on a terminal, not with --no-pager, --json or a pipe")
    func pager() throws {
        let cli = try Self.library()
        let paged = try Self.onTerminal(cli, columns: 200, ["log"], environment: ["PAGER": "sed s/^/paged:/"])
        #expect(paged.count == 4 && paged.allSatisfy { $0.hasPrefix("paged:") }, "\(paged)")
        let direct = try Self.onTerminal(cli, columns: 200, ["log", "--no-pager"], environment: ["PAGER": "sed s/^/paged:/"])
        #expect(direct.count == 4 && !direct.contains { $0.hasPrefix("paged:") })
        #expect(try Self.onTerminal(cli, columns: 200, ["log", "--json"], environment: ["PAGER": "sed s/^/paged:/"]).allSatisfy { $0.hasPrefix("{") })
        let piped = try cli.run(["log"], environment: ["PAGER": "sed s/^/paged:/"])
        #expect(piped.out.split(separator: "\n").count == 4 && !piped.out.contains("paged:"))
    }

    @Test("less pages the log in the terminal's foreground: the screen shows the newest events, q quits, and the command ends with it")
    func lessQuitsOnQ() throws {
        // Given a log longer than a 6-line terminal
        let cli = try Self.library()
        for number in 1...8 { try cli.must("episode", "create", "The Extremely Long Named Late Night Radio Programme", "More \(number)") }
        let quoted = ([CLI.binary, "log"]).map { "'" + $0 + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "stty cols 100 rows 6; exec \(quoted)", "/dev/null"]
        var environment = cli.environment.merging(["PATH": "/usr/bin:/bin", "TERM": "xterm"]) { $1 }
        environment["PAGER"] = nil
        environment["LESS"] = nil
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: cli.folder)
        let keys = Pipe()
        let screen = Pipe()
        process.standardInput = keys
        process.standardOutput = screen
        let shown = Shown()
        screen.fileHandleForReading.readabilityHandler = { shown.append($0.availableData) }
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        // When less has drawn its screen, and q is pressed
        // (The log's lines are cut at the terminal's width; the newest, position 12, is on the screen.)
        #expect(Self.waitUntil(seconds: 20) { shown.text.contains("     12  ") }, "less drew nothing: \(shown.text)")
        #expect(process.isRunning, "less waits for a key when the log does not fit")
        keys.fileHandleForWriting.write(Data("q".utf8))

        // Then less and the command end, with exit 0
        #expect(Self.waitUntil(seconds: 20) { !process.isRunning }, "still running after q: \(shown.text)")
        if !process.isRunning { #expect(process.terminationStatus == 0) }
    }

    /// What a terminal has received so far, gathered from the reading handler's thread.
    private final class Shown: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ more: Data) { lock.withLock { data.append(more) } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }

    /// Whether `condition` held within `seconds`, checked every 50 ms: a deadline for what must happen, not a timing.
    private static func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    @Test("At 60 columns no line is wider: tables drop the id and dates before cutting titles; the match stays")
    func narrow() throws {
        let cli = try Self.library()
        let noPager = ["PAGER": "cat"]
        for arguments in [
            ["log"], ["podcast", "list"], ["episode", "list", "The Extremely Long Named Late Night Radio Programme"],
            ["episode", "list", "--all"], ["search", "welcome"], ["history", "The Extremely Long Named Late Night Radio Programme"],
        ] {
            let lines = try Self.onTerminal(cli, columns: 60, arguments, environment: noPager)
            #expect(!lines.isEmpty)
            for line in lines { #expect(line.count <= 60, "\(arguments): \(line)") }
        }
        let list = try Self.onTerminal(cli, columns: 60, ["episode", "list", "The Extremely Long Named Late Night Radio Programme"])
        #expect(list[0].hasPrefix("#  TITLE") && !list[0].contains("ID") && list[0].contains("TR"), "\(list[0])")
        #expect(list[1].contains("Short") && list[1].contains("✓"), "marks kept: \(list[1])")
        #expect(list[2].contains("An Episode Whose Title") && list[2].contains("…"), "the title cut: \(list[2])")
        let search = try Self.onTerminal(cli, columns: 60, ["search", "welcome"])
        #expect(search[0].contains("MATCH") && search[1].contains("[Welcome]"), "\(search)")
        // Wide enough, nothing is left out.
        #expect(try Self.onTerminal(cli, columns: 200, ["episode", "list", "--all"])[0].hasSuffix("ID"))
    }

    @Test("Subtitles exported to a terminal show bidirectional and other controls escaped; a pipe gets them as they are; an image is never written to a terminal")
    func exportToTerminal() throws {
        // Given subtitles whose text holds a right-to-left override, which would show "txt.exe" as "exe.txt"
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        try cli.must("episode", "create", "Show", "One")
        let transcript = try cli.write("00:01.00\nAna\nOpen the file invoice\u{202E}txt.exe and \\ more.\n", to: "t.txt")
        try cli.must("transcript", "import", "Show/1", transcript)
        try cli.must("transcript", "convert", "Show/1")
        try cli.must("thumbnail", "background", "Show/1", RepositoryFiles.path("Tests/ThumbnailRendererTests/Fixtures/overlay.png"))

        // When they are exported to a terminal and to a pipe
        let shown = try Self.raw(cli, columns: 200, ["transcript", "export", "Show/1"])
        let piped = try cli.must("transcript", "export", "Show/1").out

        // Then the terminal shows the override as an escape, the pipe gets the character itself
        #expect(!shown.unicodeScalars.contains("\u{202E}") && shown.contains(#"invoice\u{202E}txt.exe and \\ more."#), "\(shown)")
        #expect(piped.contains("invoice\u{202E}txt.exe and \\ more."))
        for format in ["vtt", "json"] {
            let other = try Self.raw(cli, columns: 200, ["transcript", "export", "Show/1", "--format", format])
            #expect(!other.unicodeScalars.contains("\u{202E}") && other.contains(#"\u{202E}"#), "\(format): \(other)")
        }
        // And a thumbnail's bytes are refused a terminal (exit 64), and go to a pipe
        let refused = try Self.raw(cli, columns: 200, ["thumbnail", "export", "Show/1", "-", "--format", "png"], status: 64)
        #expect(refused.contains("Standard output is a terminal"), "\(refused)")
        #expect(try cli.must("thumbnail", "export", "Show/1", "-", "--format", "png").out.utf8.count > 1_000)
    }

    @Test("A path from the command line is printed escaped: a backup's archive and a restore's library")
    func escapedPaths() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        let archive = "notes\u{202E}rat.exe"
        let backedUp = try cli.must("backup", archive).out
        #expect(backedUp.contains(#"to notes\u{202E}rat.exe: "#) && !backedUp.unicodeScalars.contains("\u{202E}"), "\(backedUp)")
        let restored = try cli.must("restore", archive, "--library", cli.folder + "/again\u{2066}").out
        #expect(restored.contains(#"again\u{2066}. The log"#) && !restored.unicodeScalars.contains("\u{2066}"), "\(restored)")
    }

    @Test("A progress bar fits the terminal, tells its rate and time left, and clears its line when done")
    func progressBar() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        let lines = (1...400).map { #"{"command":"episode.create","podcast":"Night Shift","title":"Episode \#($0)"}"# }
        let script = try cli.write(lines.joined(separator: "\n"), to: "script.jsonl")
        let output = try Self.raw(cli, columns: 60, ["submit", script])
        let drawn = output.components(separatedBy: "\r\u{1B}[2K").dropFirst()
        #expect(!drawn.isEmpty, "a bar was drawn")
        let bars = drawn.filter { $0.hasPrefix("submitting") }
        #expect(!bars.isEmpty && bars.allSatisfy { $0.count < 60 && $0.contains("/s") }, "\(bars)")
        // Cleared before the results are printed: the last clearing comes right before them.
        #expect(drawn.last?.hasPrefix("Created episode") == true, "\(drawn.last ?? "")")
    }
}
