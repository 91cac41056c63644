import ArgumentParser
import Foundation

/// `episodic`: the command line of a podcast production library.
@main
struct EpisodicTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "episodic",
        abstract: "Shows, episodes, transcripts, subtitles and thumbnails, kept as an event log.",
        discussion: """
            The library is found at --library PATH, else $EPISODIC_LIBRARY, else $XDG_DATA_HOME/episodic \
            (~/.local/share/episodic). Create it with `episodic init`.

            A podcast is named by its id, a unique prefix of its id, or its name. An episode is named by its id, \
            a unique prefix of its id, or <podcast>/<number>.

            Options every command takes, before its name or after it:
              --library <path>       the library folder
              --json                 JSON for scripts (schemas/cli-output.md)
              -q, --quiet            no progress bar
              -v, --verbose          also the log's details: positions, event types, ids
              --utc                  times in UTC, not the local time zone ($TZ)
              --lock-timeout <s>     wait for the lock or the server, in seconds (10)
              --actor <name>         who makes the change (commands that change)
              --no-pager             long output (log, history) straight to the terminal

            Exit codes: 0 done; 64 usage error; 65 command refused (a rule, a name that matches nothing, a bad \
            input file); 66 no library, or no such input file; 74 damaged data; 75 conflict, lock timeout, full disk or a \
            shared library's server not answering (try again); 77 the server refused the password or the role's \
            rights; 1 anything else.

            `episodic install-docs` installs `man episodic` and tab completion (podcast and episode names \
            included) for the current user; `episodic --generate-completion-script bash|zsh|fish` prints a \
            completion script.
            """,
        subcommands: [
            InitCommand.self, CloneCommand.self, PushCommand.self, PodcastCommands.self, EpisodeCommands.self, TranscriptCommands.self,
            ThumbnailCommands.self, FontCommands.self, SearchCommand.self, SubmitCommand.self, ProjectionsCommands.self,
            LogCommands.self, HistoryCommand.self, ShowCommand.self, UndoCommand.self, RedoCommand.self, BackupCommand.self, RestoreCommand.self,
            InfoCommand.self, TodoCommand.self, InstallDocsCommand.self,
        ]
    )

    @Flag(help: "Print the version, the library format it writes, and where the library is.")
    var version = false

    func run() throws {
        guard version else { return Terminal.say(TerminalText(Self.summary, keepingLineBreaks: true)) }
        for line in VersionReport(libraryPath: GlobalOptions.libraryPath(given: nil)).lines { Terminal.say(TerminalText(line)) }
    }

    /// What `episodic` alone prints, as `git` does: the commands by what they are for, in a screen.
    /// `--help` has everything.
    static let summary = """
        usage: episodic <command> [<arguments>] [--library <path>] [--json]

        A library of podcasts         init, info, podcast, episode, show, search, todo
        What an episode is made of    transcript (import, convert, export), thumbnail (render, export), font
        Changes and their history     log, history, undo, redo
        Scripts                       submit (--list-commands), --json on every command
        Care                          backup, restore, log verify, log compact, projections rebuild
        A team on PostgreSQL          init --postgres, clone, push
        Man pages, tab completion     install-docs

        Start with `episodic init`. `episodic <command> --help` tells a command's options and examples;
        `episodic --help` tells everything (the library's place, names, exit codes).
        """

    /// ArgumentParser's own `main`, but its refusals are printed escaped, like every message: they quote
    /// what was typed (`The value '…' is invalid for …`), which may hold control characters. Shared
    /// options given before the subcommand are moved after it first (``LeadingOptions``), the command
    /// is parsed by its own type when it can be (``CommandPath/parsedByLeaf(_:root:)``), and the library
    /// is opened while the command line is parsed (``LibraryPrefetch``).
    static func main() {
        LibraryPrefetch.start(Array(CommandLine.arguments.dropFirst()))
        // The process must not exit while the library is being opened: the error path below exits itself.
        defer { LibraryPrefetch.finish() }
        do {
            let arguments = LeadingOptions.rewritten(Array(CommandLine.arguments.dropFirst()), root: self)
            if let library = LeadingOptions.versionRequest(arguments) {
                for line in VersionReport(libraryPath: GlobalOptions.libraryPath(given: library)).lines {
                    Terminal.say(TerminalText(line))
                }
                return
            }
            if let problem = SubcommandCheck.problem(arguments, root: self) { throw ValidationError(problem) }
            var command = try CommandPath.parsedByLeaf(arguments, root: self) ?? parseAsRoot(arguments)
            try command.run()
        } catch {
            LibraryPrefetch.finish()
            let code = exitCode(for: error)
            // A script that asked for JSON gets its usage errors as JSON too, on stderr like the others;
            // an `ExitCode` comes from a command that has said what went wrong already.
            if code.rawValue == ExitStatus.usage.rawValue, CommandLine.arguments.contains("--json"), !(error is ExitCode) {
                let record = ErrorRecord(error: .init(kind: ExitStatus.usage.kind, message: message(for: error)))
                Terminal.printJSONError(String(decoding: try! Session.encoder.encode(record), as: UTF8.self))
                Foundation.exit(code.rawValue)
            }
            // ArgumentParser writes "Error:"; every other message of this tool "error:".
            var message = fullMessage(for: error)
            if message.hasPrefix("Error: ") { message = "error: " + message.dropFirst("Error: ".count) }
            if !message.isEmpty {
                if code == .success { print(message) } else { Terminal.printError(message) }
            }
            Foundation.exit(code.rawValue)
        }
    }
}
