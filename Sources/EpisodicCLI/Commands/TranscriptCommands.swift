import ArgumentParser
import Episodic

struct TranscriptCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transcript", abstract: "Import, convert to subtitles, export and clear transcripts.",
        subcommands: [Import.self, Convert.self, Show.self, Export.self, Clear.self])

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import a transcript (UTF-8 text, up to 10 MB), replacing the episode's current one.",
            discussion: """
                The transcript is read as `transcript convert` will read it, so a file that cannot become subtitles \
                is refused here, naming the line at fault. Small defects (a title above the first timestamp, a \
                timestamp out of order or damaged, control characters) are read past with a warning that names \
                the line and what was assumed; the warnings are kept with the transcript (`episode show` lists \
                them). --strict refuses them instead. Subtitles made from the previous transcript become outdated; \
                run `transcript convert` again.

                Examples:
                  episodic transcript import "Night Shift/3" ep3.txt
                  episodic transcript import "Night Shift/3" ep3.vtt --strict
                  episodic transcript import "Night Shift/3" - < ep3.txt   from standard input
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The episode: its id, an id prefix, or <podcast>/<number>.", completion: .episodeNames) var episode: String
        @Argument(help: "The transcript file, or - for standard input.") var file: String
        @Flag(help: "Refuse a transcript with any defect, rather than reading past it with a warning.") var strict = false

        func run() throws {
            try Session.run(global, actor: who) { session in
                try session.submit(.importTranscript(
                    try Files.read(file, limit: DomainError.transcriptLimit), into: .text(episode), strict: strict))
            }
        }
    }

    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "convert",
            abstract: "Convert the episode's transcript to SRT subtitles.",
            discussion: """
                Reads the three transcript layouts DOMAIN.md describes (Zencastr, timestamp lines, time ranges), and \
                SRT and WebVTT files, whose cues keep their times and are re-broken and re-timed. Small defects are \
                read past with a warning naming the line (as `transcript import` says); --strict refuses them.

                --outdated converts every episode of --podcast (or of --all podcasts) whose subtitles are missing or \
                were made from an earlier transcript, each as a command of its own (undone one by one), or all in \
                one commit with --atomic; episodes without a transcript are passed over and counted.

                Examples:
                  episodic transcript convert "Night Shift/3"
                  episodic transcript convert "Night Shift/3" --strict
                  episodic transcript convert --outdated --podcast "Night Shift"
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The episode.", completion: .episodeNames) var episode: String?
        @Flag(help: "Refuse a transcript with any defect, rather than reading past it with a warning.") var strict = false
        @OptionGroup var batch: BatchOptions

        func validate() throws { try batch.validate(episode: episode) }

        func run() throws {
            try Session.run(global, actor: who) { session in
                guard let episode else {
                    return try BatchWork(
                        task: .convertTranscript, command: "transcript.convert", options: batch, noun: { _ in "subtitles" },
                        verb: "Converted", blockedAdvice: "a transcript first (episodic transcript import <episode> <file>)",
                        make: { _, id in Submission(.convertTranscript(.id(id), strict: strict)) }
                    ).run(session)
                }
                try session.submit(Submission(.convertTranscript(.text(episode), strict: strict)))
            }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write the episode's subtitles to a file, or to standard output: SRT, WebVTT, Podcasting 2.0 JSON or plain text.",
            discussion: """
                The format is --format, else the file's extension (.srt, .vtt, .json, .txt), else SRT; a file with another \
                extension is refused unless --format says what to write. WebVTT names each speaker as a voice \
                (<v Name>); the JSON transcript is the file an RSS <podcast:transcript> tag points to, with each \
                segment's speaker, start and end in seconds, and body; plain text gives each speaker's turn as a \
                paragraph, without times, for show notes. On a terminal, control and bidirectional characters are shown \
                escaped (\\u{202E}); a file or a pipe gets the bytes as they are.

                Examples:
                  episodic transcript export "Night Shift/3" ep3.srt
                  episodic transcript export "Night Shift/3" ep3.vtt   WebVTT
                  episodic transcript export "Night Shift/3" notes.txt   for show notes
                  episodic transcript export "Night Shift/3" --format json > ep3.json
                  episodic transcript export "Night Shift/3" | head    SRT, to standard output
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The episode.", completion: .episodeNames) var episode: String
        @Argument(help: "The file to write (default: standard output).") var file: String?
        @Option(help: "srt, vtt, json or txt (default: from the file's extension, else srt).") var format: SubtitleFileFormat?

        func validate() throws {
            if format == nil, let file, file != "-", let suffix = SubtitleFileFormat.fileExtension(of: file),
                SubtitleFileFormat(fileName: file) == nil
            {
                throw ValidationError(
                    "\(file) ends in .\(suffix), which is not a format the subtitles are written in. Name it .srt, .vtt, .json "
                        + "or .txt, or give --format to write it all the same.")
            }
        }

        func run() throws {
            try Session.run(global) { session in
                let format = format ?? file.flatMap(SubtitleFileFormat.init(fileName:)) ?? .srt
                let (bytes, outdated) = try session.library().subtitles(of: .text(episode), as: format)
                if outdated {
                    Terminal.printError("warning: these subtitles were made from an earlier transcript. "
                        + "Run `episodic transcript convert \(ShellWord.quoted(episode))` to bring them up to date.")
                }
                try Files.write(text: bytes, to: file)
                session.printExport(
                    ExportRecord(command: "transcript.export", file: file ?? "-", format: format.rawValue, bytes: bytes.count, outdated: outdated),
                    what: (format == .txt ? "the plain-text transcript of " : "the \(format.name) subtitles of ") + "\"\(episode)\"")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the episode's transcript as it was imported, then the defects read past.",
            discussion: """
                Control characters are shown escaped (\\u{1B}); `--json` gives the text and the warnings.

                Examples:
                  episodic transcript show "Night Shift/3"
                  episodic transcript show "Night Shift/3" --json
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The episode.", completion: .episodeNames) var episode: String

        func run() throws {
            try Session.run(global) { session in
                let (bytes, warnings) = try session.library().transcript(of: .text(episode))
                let text = String(decoding: bytes, as: UTF8.self)
                if global.json {
                    return session.printJSON(TranscriptRecord(text: text, warnings: warnings.map(TranscriptWarningRecord.init)))
                }
                for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
                    Terminal.say(TerminalText(line))
                }
                for warning in warnings { Terminal.printError("warning: \(warning)") }
            }
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear", abstract: "Remove the episode's transcript.",
            discussion: """
                Examples:
                  episodic transcript clear "Night Shift/3"
                  episodic undo --last                        brings it back
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The episode.", completion: .episodeNames) var episode: String

        func run() throws {
            try Session.run(global, actor: who) { session in try session.submit(Submission(.episode(.text(episode), .clearTranscript))) }
        }
    }
}
