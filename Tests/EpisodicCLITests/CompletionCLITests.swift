import Foundation
import Testing

/// Tab completion of podcast and episode names: the scripts `--generate-completion-script` prints run
/// `episodic ---completion <subcommands> -- <argument> <word index> <cursor> <words…>` at each Tab. It
/// answers from the library without writing a byte of it, and with nothing, silently, without one.
@Suite("Tab completion of podcast and episode names")
struct CompletionCLITests {
    /// What the script asks for `words` (the command line typed, the word being completed last), for
    /// the first positional argument of `subcommands`.
    static func request(_ subcommands: [String], words: [String], argument: String = "positional@0") -> [String] {
        ["---completion"] + subcommands + ["--", argument, "\(words.count - 1)", "\(words.last!.count)"] + words
    }

    func library() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        try cli.must("episode", "create", "Night Shift", "Pilot")
        try cli.must("episode", "create", "Night Shift", "Second")
        return cli
    }

    @Test("podcasts by name, episodes as <podcast>/<number>, both where either is named; the scripts ask for them")
    func names() throws {
        let cli = try library()
        let podcasts = try cli.run(Self.request(["podcast", "show"], words: ["episodic", "podcast", "show", ""]))
        #expect(podcasts.status == 0 && podcasts.err.isEmpty)
        #expect(podcasts.out.split(separator: "\n") == ["Night Shift"])
        let episodes = try cli.run(Self.request(["episode", "show"], words: ["episodic", "episode", "show", "Ni"]))
        #expect(episodes.out.split(separator: "\n") == ["Night Shift/1", "Night Shift/2"])
        let either = try cli.run(Self.request(["history"], words: ["episodic", "history", ""]))
        #expect(Set(either.out.split(separator: "\n")) == ["Night Shift", "Night Shift/1", "Night Shift/2"])
        let option = try cli.run(Self.request(["log", "list"], words: ["episodic", "log", "list", "--episode", ""], argument: "--episode"))
        #expect(option.out.split(separator: "\n") == ["Night Shift/1", "Night Shift/2"], "\(option.err)")

        let script = try cli.must("--generate-completion-script", "bash").out
        #expect(script.contains("---completion episode show -- positional@0"))
        #expect(script.contains("---completion log list -- --episode"))
    }

    @Test("the top-level help says where man pages and completion come from")
    func helpSaysSo() throws {
        let help = try CLI().must("--help").out
        #expect(help.contains("`man episodic`") && help.contains("episodic install-docs"))
        #expect(help.contains("--generate-completion-script"))
    }

    @Test("episodic alone prints a screen of commands by what they are for, each one a command that exists")
    func shortSummary() throws {
        let run = try CLI().must()
        let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "usage: episodic <command> [<arguments>] [--library <path>] [--json]")
        #expect(lines.count < 20, "\(run.out)")
        // Every word named as a command in the summary's table is one the command line knows.
        let table = lines.filter { $0.contains("   ") }
        #expect(table.count == 7)
        let known = try CLI().must("--help").out
        // The full help's own lines fit 80 columns: a longer one would wrap to the first column.
        for line in known.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
        // One spelling of the word before every error, ArgumentParser's usage errors included.
        let bogus = try CLI().run("podcast", "list", "--bogus")
        #expect(bogus.status == 64 && bogus.err.hasPrefix("error: "), "\(bogus.err)")
        for row in table {
            let named = String(row.split(separator: "  ").last!).replacingOccurrences(of: #"\([^)]*\)"#, with: "", options: .regularExpression)
            let commands = named.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            for command in commands {
                let name = String(command.prefix { $0 != " " })
                guard !name.hasPrefix("-") else { continue }
                #expect(known.contains("  \(name) ") || known.contains("  \(name)\n"), "\(name) is not a command")
            }
        }
    }

    @Test("--library among the words typed is the library asked")
    func libraryTyped() throws {
        let cli = try library()
        let other = CLI()
        try other.must("init")
        try other.must("podcast", "create", "Other Show")
        let words = ["episodic", "podcast", "show", "--library", other.library, ""]
        #expect(try cli.run(Self.request(["podcast", "show"], words: words)).out.split(separator: "\n") == ["Other Show"])
        let joined = ["episodic", "podcast", "show", "--library=\"\(other.library)\"", ""]
        #expect(try cli.run(Self.request(["podcast", "show"], words: joined)).out.split(separator: "\n") == ["Other Show"])
    }

    @Test("without a library: nothing, exit 0, nothing on stderr, and no library made")
    func noLibrary() throws {
        let cli = CLI()
        let run = try cli.run(Self.request(["episode", "show"], words: ["episodic", "episode", "show", ""]))
        #expect(run.status == 0 && run.out.isEmpty && run.err.isEmpty, "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: cli.library))
    }

    @Test("the library is left byte for byte as it was, even with read models behind the log")
    func writesNothing() throws {
        let cli = try library()
        let podcast = try #require(try cli.list("podcast", "list").first?["id"] as? String)
        var before = try LibraryFiles.snapshot(cli.library)
        let request = Self.request(["history"], words: ["episodic", "history", ""])
        #expect(try cli.run(request).status == 0)
        #expect(try LibraryFiles.snapshot(cli.library) == before)

        // A command that died before projecting: the read models are one event behind, and stay so.
        try LibraryFiles.appendUnprojectedRename(library: cli.library, podcast: podcast, to: "Day Shift")
        before = try LibraryFiles.snapshot(cli.library)
        let behind = try cli.run(request)
        #expect(behind.status == 0 && behind.err.isEmpty)
        #expect(behind.out.split(separator: "\n").first == "Night Shift")
        #expect(try LibraryFiles.snapshot(cli.library) == before)
    }

    @Test("bash is given each name so that it offers it as it is: spaces, quotes and $(…) included, nothing run")
    func bashTakesNamesLiterally() throws {
        let cli = try library()
        let trap = cli.folder + "/ran"
        let names = ["Rock 'n' Roll: Live", "$(touch \(trap))", #"back\slash"#]
        for name in names { try cli.must("podcast", "create", name) }
        let run = try cli.run(
            Self.request(["podcast", "show"], words: ["episodic", "podcast", "show", ""]), environment: ["SAP_SHELL": "bash"])
        // As the generated script does: the answer is the word list of `compgen -W`, split at newlines.
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["-c", #"IFS=$'\n'; compgen -W "$1" -- "$2""#, "bash", run.out, ""]
        let out = Pipe()
        bash.standardOutput = out
        try bash.run()
        let offered = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bash.waitUntilExit()
        #expect(Set(offered.split(separator: "\n").map(String.init)) == Set(names + ["Night Shift"]))
        #expect(!FileManager.default.fileExists(atPath: trap))
    }
}
