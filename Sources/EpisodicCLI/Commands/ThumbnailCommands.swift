import ArgumentParser
import Episodic

struct ThumbnailCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Set up an episode's thumbnail (background, overlay, settings, text), render it, export it.",
        subcommands: [Background.self, Overlay.self, Settings.self, Text.self, Render.self, Export.self])

    struct Background: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "background", abstract: "Set the image the thumbnail is drawn on (PNG or JPEG); rendering needs one.",
            discussion: """
                Examples:
                  episodic thumbnail background "Night Shift/3" studio.jpg
                  episodic thumbnail render "Night Shift/3"                  then draw it
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The episode: its id, an id prefix, or <podcast>/<number>.", completion: .episodeNames) var episode: String
        @Argument(help: "The image file.") var file: String

        func run() throws {
            try Session.run(global, actor: who) { session in
                try session.submit(try .setBackground(try Files.read(file), of: .text(episode)))
            }
        }
    }

    struct Overlay: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "overlay", abstract: "Set the image drawn over the background (a PNG with transparency), or remove it with --clear.",
            discussion: """
                Examples:
                  episodic thumbnail overlay "Night Shift/3" frame.png
                  episodic thumbnail overlay "Night Shift/3" --clear
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The episode.", completion: .episodeNames) var episode: String
        @Argument(help: "The image file.") var file: String?
        @Flag(help: "Remove the overlay.") var clear = false

        func validate() throws { try ImageArguments.validate(file: file, clear: clear) }

        func run() throws {
            try Session.run(global, actor: who) { session in
                let target = EpisodeReference.text(episode)
                try session.submit(try file.map { try .setOverlay(try Files.read($0), of: target) }
                    ?? Submission(.episode(target, .clearOverlay)))
            }
        }
    }

    struct Settings: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "settings",
            abstract: "Change an episode's thumbnail settings; the options not given stay as they are.",
            discussion: """
                Examples:
                  episodic thumbnail settings "Night Shift/3" --position top --font-size 72
                  episodic thumbnail settings "Night Shift/3" --text-x 0.5 --text-y 0.8
                  episodic thumbnail settings "Night Shift/3" --outline-color '#000000'
                  episodic thumbnail settings "Night Shift/3" --default-font --no-outline
                  episodic thumbnail settings "Night Shift/3" --fit wrap --font-size 96
                  episodic thumbnail settings "Night Shift/3" --overlay-placement original
                  episodic thumbnail settings "Night Shift/3" --overlay-scale 0.5
                  episodic thumbnail settings "Night Shift/3" --overlay-position top-right
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The episode: its id, an id prefix, or <podcast>/<number>.", completion: .episodeNames) var episode: String
        @OptionGroup var settings: ThumbnailSettingsOptions

        func run() throws {
            try Session.run(global, actor: who) { session in
                try session.submit(Submission(.patchThumbnailSettings(.text(episode), try settings.patch())))
            }
        }
    }

    struct Text: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "text",
            abstract: "Set the text drawn on the thumbnail (line breaks start new lines), or draw the title or EP <number>.",
            discussion: """
                A new episode says what its podcast's default says (`podcast defaults --text`): EP <number> \
                unless changed. With --from-title the thumbnail says the episode's title, and follows it: a \
                retitle makes the thumbnail outdated, to be rendered again.

                Examples:
                  episodic thumbnail text "Night Shift/3" "The 3 a.m. caller"
                  episodic thumbnail text "Night Shift/3" "$(printf 'The caller\\nPart two')"
                  episodic thumbnail text "Night Shift/3" --from-title   its title
                  episodic thumbnail text "Night Shift/3" --default      EP 3 again
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The episode.", completion: .episodeNames) var episode: String
        @Argument(help: "The text.") var text: String?
        @OptionGroup var choice: ThumbnailTextChoice

        func validate() throws { _ = try choice.text(text) }

        func run() throws {
            try Session.run(global, actor: who) { session in
                try session.submit(Submission(.episode(.text(episode), .changeThumbnailText(try choice.text(text)))))
            }
        }
    }

    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "render",
            abstract: "Render the episode's thumbnail from its current background, overlay, settings and text, and store it.",
            discussion: """
                The stored thumbnail is a JPEG of at most 1024 pixels on its longest side, overlay and all. It is \
                drawn before the library is locked; if the episode changes meanwhile, the render is refused and \
                nothing is written: render again. `thumbnail export` writes one at full size.

                --outdated renders every episode of --podcast (or of --all podcasts) whose thumbnail is missing or \
                out of date, each as a command of its own (undone one by one), or all in one commit with --atomic; \
                episodes without a background are passed over and counted.

                Examples:
                  episodic thumbnail render "Night Shift/3"
                  episodic thumbnail render "Night Shift/3" --json
                  episodic thumbnail render --outdated --podcast "Night Shift"
                  episodic thumbnail render --outdated --all --atomic
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The episode: its id, an id prefix, or <podcast>/<number>.", completion: .episodeNames) var episode: String?
        @OptionGroup var batch: BatchOptions

        func validate() throws { try batch.validate(episode: episode) }

        func run() throws {
            try Session.run(global, actor: who) { session in
                guard let episode else {
                    return try BatchWork(
                        task: .renderThumbnail, command: "thumbnail.render", options: batch, noun: { $0 == 1 ? "thumbnail" : "thumbnails" },
                        verb: "Rendered", blockedAdvice: "a background first (episodic thumbnail background <episode> <image>)",
                        make: { library, id in try library.renderThumbnail(of: .id(id)) }
                    ).run(session)
                }
                try session.submit { library in try library.renderThumbnail(of: .text(episode)) }
            }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Render the episode's thumbnail at full size and write it to a file, or to standard output: PNG or JPEG.",
            discussion: """
                Drawn from the episode's current inputs; nothing is recorded. The format is --format, else the file's \
                extension (.png, .jpg, .jpeg); a file with another extension is refused unless --format says what to \
                write; - writes PNG to standard output unless --format says jpeg. The file is written whole or not at all.

                Examples:
                  episodic thumbnail export "Night Shift/3" ep3.png
                  episodic thumbnail export "Night Shift/3" - > ep3.png
                  episodic thumbnail export "Night Shift/3" - --format jpeg > ep3.jpg
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The episode.", completion: .episodeNames) var episode: String
        @Argument(help: "The file to write: .png, .jpg or .jpeg, or - for standard output.") var file: String
        @Option(help: "png or jpeg (default: from the file's extension; png for standard output).") var format: ImageFormat?

        func validate() throws {
            if file == "-", Terminal.stdoutIsTerminal {
                throw ValidationError("Standard output is a terminal, which would take the image's bytes for commands. Redirect it (> ep3.png).")
            }
        }

        func run() throws {
            try Session.run(global) { session in
                let format = try format ?? (file == "-" ? .png : ImageFormat(exportPath: file))
                let bytes = try session.library().exportThumbnail(of: .text(episode), format: format)
                try Files.write(bytes, to: file)
                session.printExport(
                    ExportRecord(command: "thumbnail.export", file: file, format: format.rawValue, bytes: bytes.count),
                    what: "the \(format.name) thumbnail of \"\(episode)\"")
            }
        }
    }
}

/// `png` or `jpeg`.
extension ImageFormat: ExpressibleByArgument {}
