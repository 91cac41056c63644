import Foundation
import Testing

/// The shared options before the subcommand, as `git` and `kubectl` users type them, and `--version`.
@Suite("Options before the subcommand, and --version")
struct LeadingOptionsTests {
    @Test("--library, --json, --quiet, --actor and --lock-timeout work before the subcommand, in both spellings")
    func beforeTheSubcommand() throws {
        // Given a library that only --library names (the environment points elsewhere)
        let cli = CLI()
        let library = cli.folder + "/elsewhere"
        try cli.must("--library", library, "init")

        // When commands give the shared options before their names
        try cli.must("--library", library, "--actor", "ana", "--lock-timeout", "5", "podcast", "create", "Night Shift")
        try cli.must("--library=\(library)", "-q", "--actor=bo", "episode", "create", "Night Shift", "Pilot")
        let podcasts = try cli.run(["--json", "--library", library, "podcast", "list"])

        // Then they apply as if given after them
        #expect(podcasts.status == 0)
        let list = try #require(try podcasts.json() as? [[String: Any]])
        #expect(list.map { $0["name"] as? String } == ["Night Shift"])
        let history = try cli.run(["--library", library, "--json", "history", "Night Shift/1"])
        #expect(history.status == 0)
        let entries = try #require(try history.json() as? [[String: Any]])
        #expect(entries.first?["actor"] as? String == "bo")
        #expect(!FileManager.default.fileExists(atPath: cli.library))
    }

    @Test("A misspelt option before the subcommand is a usage error (64), not taken for a subcommand")
    func misspelt() throws {
        let cli = CLI()
        try cli.must("init")
        let run = try cli.run(["--libary", cli.library, "podcast", "list"])
        #expect(run.status == 64)
        #expect(run.err.contains("--libary"))
    }

    @Test("--version prints the release, the format it writes, and the library with its format")
    func version() throws {
        let cli = CLI()
        let before = try cli.must("--version").out
        #expect(before.hasPrefix("episodic "))
        #expect(before.contains("\nlibrary format 3\n"))
        #expect(before.contains("library \(cli.library) (none yet: `episodic init` creates it)"))
        try cli.must("init")
        #expect(try cli.must("--version").out.contains("library \(cli.library) (episodic library format 3)"))
    }

    @Test("Top-level --help lists the shared options")
    func help() throws {
        let help = try CLI().must("--help").out
        for option in ["--library <path>", "--json", "--quiet", "--actor <name>", "--lock-timeout <s>", "--version"] {
            #expect(help.contains(option), "\(option)")
        }
    }
}
