import ArgumentParser
import Episodic
import PodcastDomain

struct ThumbnailCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail", abstract: "Set up an episode's thumbnail: its settings and its text.",
        subcommands: [Settings.self, Text.self])

    struct Settings: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "settings",
            abstract: "Change an episode's thumbnail settings; the options not given stay as they are.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The episode: its id, an id prefix, or <podcast>/<number>.") var episode: String
        @OptionGroup var settings: ThumbnailSettingsOptions

        func run() throws {
            try Session.run(global) { session in
                try session.submit(Submission(.patchThumbnailSettings(.text(episode), try settings.patch())))
            }
        }
    }

    struct Text: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "text",
            abstract: "Set the text drawn on the thumbnail; --default goes back to EP <number>.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The episode.") var episode: String
        @Argument(help: "The text.") var text: String?
        @Flag(name: .customLong("default"), help: "Draw the default text, EP <number>.") var useDefault = false

        func validate() throws {
            if (text == nil) == !useDefault { throw ValidationError("Give the text, or --default.") }
        }

        func run() throws {
            try Session.run(global) { session in
                try session.submit(Submission(.episode(.text(episode), .changeThumbnailText(text))))
            }
        }
    }
}
