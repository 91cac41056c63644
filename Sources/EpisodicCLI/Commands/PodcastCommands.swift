import ArgumentParser
import Episodic
import Foundation

struct PodcastCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "podcast", abstract: "Create, change, delete and list podcasts.",
        subcommands: [
            Create.self, Rename.self, Describe.self, Artwork.self, Overlay.self, Background.self, Defaults.self, Delete.self, List.self, Show.self,
        ])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "Create a podcast; its name must be new.",
            discussion: """
                Examples:
                  episodic podcast create "Night Shift"
                  episodic podcast create "Night Shift" --description "Calls after midnight"
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The podcast's name.") var name: String
        @Option(help: "What the podcast is about.") var description: String?
        @Option(help: ArgumentHelp("The new podcast's id (default: a new random one).", valueName: "uuid"))
        var id: PodcastID?

        func run() throws {
            try Session.run(global, actor: who) { session in
                let id = id ?? PodcastID(UUID())
                try session.submit(Submission(.podcast(.id(id), .create(id: id, name: name, description: description, at: session.now))))
            }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Give a podcast a new name.",
            discussion: """
                Its episodes keep their numbers: "Night Shift/3" becomes "The Night Shift/3".

                Examples:
                  episodic podcast rename "Night Shift" "The Night Shift"
                  episodic podcast rename 5273d86b "The Night Shift"   by the start of its id
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The podcast: its id, an id prefix, or its name.", completion: .podcastNames) var podcast: String
        @Argument(help: "The new name.") var name: String

        func run() throws {
            try Session.run(global, actor: who) { session in
                try session.submit(Submission(.podcast(.text(podcast), .rename(name))))
            }
        }
    }

    struct Describe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "describe",
            abstract: "Show a podcast's description; with text, set it; with --clear, remove it.",
            discussion: """
                Examples:
                  episodic podcast describe "Night Shift"
                  episodic podcast describe "Night Shift" "Calls after midnight"
                  episodic podcast describe "Night Shift" --clear
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The podcast.", completion: .podcastNames) var podcast: String
        @Argument(help: "The description.") var text: String?
        @Flag(help: "Remove the description.") var clear = false

        func validate() throws { try DescriptionArguments.validate(text: text, clear: clear) }

        func run() throws {
            try Session.run(global, actor: who) { session in
                guard text != nil || clear else {
                    let library = try session.library()
                    let id = try library.resolve(PodcastReference.text(podcast))
                    let description = try library.podcasts().first { $0.id == id }?.description
                    return DescriptionArguments.show(description, session: session)
                }
                try session.submit(Submission(.podcast(.text(podcast), .describe(text))))
            }
        }
    }

    struct Artwork: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "artwork", abstract: "Set the podcast's artwork from a PNG or JPEG file, or remove it with --clear.",
            discussion: """
                Examples:
                  episodic podcast artwork "Night Shift" cover.jpg
                  episodic podcast artwork "Night Shift" --clear
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The podcast.", completion: .podcastNames) var podcast: String
        @Argument(help: "The image file.") var file: String?
        @Flag(help: "Remove the artwork.") var clear = false

        func validate() throws { try ImageArguments.validate(file: file, clear: clear) }

        func run() throws {
            try Session.run(global, actor: who) { session in
                let target = PodcastReference.text(podcast)
                try session.submit(try file.map { try .setArtwork(try Files.read($0), of: target) }
                    ?? Submission(.podcast(target, .clearArtwork)))
            }
        }
    }

    struct Overlay: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "overlay",
            abstract: "Set the overlay new episodes start with (a PNG with transparency, usually), or remove it with --clear.",
            discussion: """
                Episodes made before keep their own overlay.

                Examples:
                  episodic podcast overlay "Night Shift" frame.png
                  episodic podcast overlay "Night Shift" --clear
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The podcast.", completion: .podcastNames) var podcast: String
        @Argument(help: "The image file.") var file: String?
        @Flag(help: "Remove the default overlay.") var clear = false

        func validate() throws { try ImageArguments.validate(file: file, clear: clear) }

        func run() throws {
            try Session.run(global, actor: who) { session in
                let target = PodcastReference.text(podcast)
                try session.submit(try file.map { try .setDefaultOverlay(try Files.read($0), of: target) }
                    ?? Submission(.podcast(target, .clearDefaultOverlay)))
            }
        }
    }

    struct Background: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "background",
            abstract: "Set the background new episodes start with, or remove it with --clear (they then start with the artwork).",
            discussion: """
                A new episode's thumbnail is drawn on the podcast's default background, else on its artwork, until \
                `thumbnail background` gives it one of its own. Episodes made before keep their own background.

                Examples:
                  episodic podcast background "Night Shift" studio.jpg
                  episodic podcast background "Night Shift" --clear
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The podcast.", completion: .podcastNames) var podcast: String
        @Argument(help: "The image file.") var file: String?
        @Flag(help: "Remove the default background.") var clear = false

        func validate() throws { try ImageArguments.validate(file: file, clear: clear) }

        func run() throws {
            try Session.run(global, actor: who) { session in
                let target = PodcastReference.text(podcast)
                try session.submit(try file.map { try .setDefaultBackground(try Files.read($0), of: target) }
                    ?? Submission(.podcast(target, .clearDefaultBackground)))
            }
        }
    }

    struct Defaults: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "defaults",
            abstract: "Change the thumbnail settings and text new episodes start from.",
            discussion: """
                Episodes made before keep their own, unless --apply-to-existing changes the same settings \
                and text in each of the podcast's episodes too, each as a command of its own (undone one by \
                one). Settings and text given together are two commands.

                Examples:
                  episodic podcast defaults "Night Shift" --position bottom --color '#FFCC00'
                  episodic podcast defaults "Night Shift" --canvas 1920x1080 --scaling fit
                  episodic podcast defaults "Night Shift" --font Inter   an imported font
                  episodic podcast defaults "Night Shift" --text-from-title   say the title
                  episodic podcast defaults "Night Shift" --font-size 96 --apply-to-existing
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The podcast.", completion: .podcastNames) var podcast: String
        @OptionGroup var settings: ThumbnailSettingsOptions
        @Option(help: ArgumentHelp("Words new episodes' thumbnails say instead of EP <number>.", valueName: "text"))
        var text: String?
        @Flag(help: "New episodes' thumbnails say their title, following it.")
        var textFromTitle = false
        @Flag(help: "New episodes' thumbnails say EP <number>.")
        var textDefault = false
        @Flag(help: "Also change the same settings and text in every episode the podcast has, a command each.")
        var applyToExisting = false

        func validate() throws { _ = try textChoice() }

        private func textChoice() throws -> ThumbnailText? {
            try ThumbnailTextChoice.choice(
                words: text, fromTitle: textFromTitle, number: textDefault,
                else: ValidationError("Give one of --text, --text-from-title and --text-default."))
        }

        func run() throws {
            try Session.run(global, actor: who) { session in
                let patch = try settings.patch()
                let text = try textChoice()
                // With neither, the empty patch is what says there is nothing to change.
                if !patch.isEmpty || text == nil { try session.submit(Submission(.patchThumbnailDefaults(.text(podcast), patch))) }
                if let text { try session.submit(Submission(.podcast(.text(podcast), .changeDefaultThumbnailText(text)))) }
                guard applyToExisting else { return }
                let library = try session.library()
                let id = try library.resolve(PodcastReference.text(podcast))
                let episodes = try library.episodes(EpisodeQuery(podcast: id, sort: .number))
                func changes(_ episode: EpisodeReference) -> [Submission] {
                    (patch.isEmpty ? [] : [Submission(.patchThumbnailSettings(episode, patch))])
                        + (text.map { [Submission(.episode(episode, .changeThumbnailText($0)))] } ?? [])
                }
                let perEpisode = (patch.isEmpty ? 0 : 1) + (text == nil ? 0 : 1)
                let report = try library.submit(episodes.flatMap { changes(.id($0.id)) }, actor: session.actor, keepGoing: true)
                session.warnIfBehind(report)
                // Episodes by their index in `episodes`: submission `i` is for episode `i / perEpisode`.
                var changed = Set<Int>(), refused = Set<Int>(), firstFailure: SubmitFailure?
                for (index, result) in report.results.enumerated() {
                    switch result {
                    case .success(let outcome):
                        if outcome.positions != nil { changed.insert(index / perEpisode) }
                        session.printOutcome(outcome)
                    case .failure(let failure):
                        firstFailure = firstFailure ?? failure
                        refused.insert(index / perEpisode)
                        session.printRefusal(failure, episode: "\(podcast)/\(episodes[index / perEpisode].number)")
                    }
                }
                let unchanged = episodes.count - changed.union(refused).count
                if !global.json && !global.quiet {
                    let what = patch.isEmpty ? "text" : text == nil ? "settings" : "settings and text"
                    Terminal.say(TerminalText("Changed the \(what) of \(changed.count) of \(Amount.count(episodes.count, "episode"))"
                        + (unchanged > 0 ? "; \(unchanged) had \(patch.isEmpty ? "it" : "them") already." : ".")))
                }
                if let firstFailure { throw ExitCode(ExitStatus(for: firstFailure).rawValue) }
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a podcast and all its episodes.",
            discussion: """
                `episodic undo` brings them back.

                Examples:
                  episodic podcast delete "Night Shift"
                  episodic undo --last                    brings it back, with its episodes
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The podcast.", completion: .podcastNames) var podcast: String

        func run() throws {
            try Session.run(global, actor: who) { session in
                try session.submit(Submission(.podcast(.text(podcast), .delete)))
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List podcasts, newest first.",
            discussion: """
                CREATED is the day in the local time zone, whose offset the heading gives; --utc for UTC.

                Examples:
                  episodic podcast list
                  episodic podcast list --sort name   by name
                  episodic podcast list --json        for scripts: ids, names and counts
                """)
        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("The order: created (newest first), name, or episodes (most first).", valueName: "order"))
        var sort: PodcastOrder = .created

        func run() throws {
            try Session.run(global) { session in
                let podcasts = sort.sorted(try session.library().podcasts())
                if global.json { return session.printJSON(podcasts.map(PodcastRecord.init)) }
                var table = Table([
                    .init(title: "ID", dropOrder: 0), .init(title: "NAME", flexible: true),
                    .init(title: "EPISODES", alignRight: true, short: "EPS"),
                    .init(title: "NO TRANSCRIPT", alignRight: true, short: "NO TR", dropOrder: 2),
                    .init(title: "NO THUMBNAIL", alignRight: true, short: "NO TH", dropOrder: 2),
                    .init(title: "CREATED (\(session.times.marker(at: session.now)))", short: "CREATED", dropOrder: 1),
                ])
                for podcast in podcasts {
                    table.append([
                        String(podcast.id.description.prefix(8)), podcast.name, "\(podcast.episodeCount)",
                        "\(podcast.missingTranscriptCount)", "\(podcast.missingThumbnailCount)", session.times.day(podcast.createdAt),
                    ])
                }
                session.printTable(table, empty: "No podcasts yet. Create one with `episodic podcast create <name>`.")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show everything about one podcast, with the thumbnail settings new episodes start from.",
            discussion: """
                `episodic podcast defaults` changes those settings; `episodic show <podcast> --as-of` shows the podcast \
                as it was at a point of the log.

                Examples:
                  episodic podcast show "Night Shift"
                  episodic podcast show "Night Shift" --json
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The podcast: its id, an id prefix, or its name.", completion: .podcastNames) var podcast: String

        func run() throws {
            try Session.run(global) { session in
                let library = try session.library()
                let id = try library.resolve(PodcastReference.text(podcast))
                let podcast = try library.podcastState(id).requireLive()
                let episodes = try library.podcasts().first { $0.id == id }?.episodeCount ?? 0
                if global.json { return session.printJSON(PodcastShowRecord(podcast: podcast, episodeCount: episodes)) }
                for line in PodcastSheet.lines(podcast, episodes: episodes, times: session.times) { Terminal.say(line) }
            }
        }
    }
}

/// `podcast show --json`: the podcast as its events write it (its thumbnail defaults included), and
/// how many live episodes it has.
private struct PodcastShowRecord: Encodable {
    var podcast: Podcast
    var episodeCount: Int
}

/// The orders `podcast list --sort` offers; the read model gives podcasts newest first, and a library
/// holds few enough podcasts to sort them here.
enum PodcastOrder: String, ExpressibleByArgument, CaseIterable {
    case created, name, episodes

    func sorted(_ podcasts: [PodcastSummary]) -> [PodcastSummary] {
        switch self {
        case .created: podcasts
        case .name: podcasts.sorted { $0.name.localizedCaseInsensitiveCompare($1.name) == .orderedAscending }
        case .episodes: podcasts.enumerated().sorted { ($0.element.episodeCount, -$0.offset) > ($1.element.episodeCount, -$1.offset) }.map(\.element)
        }
    }
}
