import ArgumentParser
import Episodic
import Foundation

struct EpisodeCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "episode", abstract: "Create, change, delete, list and show episodes.",
        subcommands: [
            Create.self, Retitle.self, Renumber.self, Describe.self, PublishDate.self, Delete.self, List.self, Show.self,
        ])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Create an episode in a podcast.",
            discussion: """
                It starts with the podcast's thumbnail defaults and default overlay.

                Examples:
                  episodic episode create "Night Shift" "Pilot"   numbered after the last
                  episodic episode create "Night Shift" "Live Q&A" --number 10
                  episodic episode create "Night Shift" "Finale" --publish-date 2026-11-21
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The podcast: its id, an id prefix, or its name.", completion: .podcastNames) var podcast: String
        @Argument(help: "The episode's title.") var title: String
        @Option(parsing: .unconditional, help: "Its number, 1 to 2147483647, unique in the podcast (default: the highest + 1).",
            transform: NumberArgument.whole(Rules.episodeNumbers)) var number: Int?
        @Option(help: ArgumentHelp(
            "When it is published: 2026-11-21, 2026-11-21T18:30:00Z, tomorrow, friday, next friday, \"in 2 weeks\".", valueName: "date"))
        var publishDate: String?
        @Option(help: "What the episode is about.") var description: String?
        @Option(help: ArgumentHelp("The new episode's id (default: a new random one).", valueName: "uuid"))
        var id: EpisodeID?

        func run() throws {
            try Session.run(global, actor: who) { session in
                let id = id ?? EpisodeID(UUID())
                let date = try publishDate.map { try Self.parseDate($0, session: session) }
                try session.submit(Submission(.createEpisode(
                    in: .text(podcast),
                    .create(id: id, title: title, number: number, description: description, publishDate: date, at: session.now))))
            }
        }

        /// A publish date: a date or a time, or words looking ahead (`next friday`, in the local zone).
        static func parseDate(_ text: String, session: Session) throws -> Timestamp {
            guard let date = LogBound.upcoming(text, now: session.now, timeZone: session.times.zone) else {
                throw LibraryError.invalidPublishDate(text)
            }
            return date
        }
    }

    struct Retitle: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retitle", abstract: "Give an episode a new title.",
            discussion: """
                Examples:
                  episodic episode retitle "Night Shift/3" "The 3 a.m. caller, part 1"
                  episodic episode retitle 98dddbb6 "The 3 a.m. caller"   by the start of its id
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The episode: its id, an id prefix, or <podcast>/<number>.", completion: .episodeNames) var episode: String
        @Argument(help: "The new title.") var title: String

        func run() throws {
            try Session.run(global, actor: who) { session in try session.submit(Submission(.episode(.text(episode), .retitle(title)))) }
        }
    }

    struct Renumber: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "renumber", abstract: "Give an episode a number no other episode of its podcast has.",
            discussion: """
                Examples:
                  episodic episode renumber "Night Shift/3" 4   "Night Shift/4" from then on
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The episode.", completion: .episodeNames) var episode: String
        @Argument(help: "The new number, 1 to 2147483647.", transform: NumberArgument.whole(Rules.episodeNumbers)) var number: Int

        func run() throws {
            try Session.run(global, actor: who) { session in try session.submit(Submission(.episode(.text(episode), .renumber(number)))) }
        }
    }

    struct Describe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "describe",
            abstract: "Show an episode's description; with text, set it; with --clear, remove it.",
            discussion: """
                Examples:
                  episodic episode describe "Night Shift/3"
                  episodic episode describe "Night Shift/3" "A caller who knows too much"
                  episodic episode describe "Night Shift/3" --clear
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The episode.", completion: .episodeNames) var episode: String
        @Argument(help: "The description.") var text: String?
        @Flag(help: "Remove the description.") var clear = false

        func validate() throws { try DescriptionArguments.validate(text: text, clear: clear) }

        func run() throws {
            try Session.run(global, actor: who) { session in
                guard text != nil || clear else {
                    let library = try session.library()
                    let id = try library.resolve(EpisodeReference.text(episode))
                    return DescriptionArguments.show(try library.liveEpisode(id).description, session: session)
                }
                try session.submit(Submission(.episode(.text(episode), .describe(text))))
            }
        }
    }

    struct PublishDate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "publish-date", abstract: "Set when an episode is published, or remove the date with --clear.",
            discussion: """
                Examples:
                  episodic episode publish-date "Night Shift/3" 2026-11-21
                  episodic episode publish-date "Night Shift/3" 2026-11-21T18:30:00Z
                  episodic episode publish-date "Night Shift/3" "next friday"
                  episodic episode publish-date "Night Shift/3" --clear
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The episode.", completion: .episodeNames) var episode: String
        @Argument(help: "2026-11-21 (midnight UTC), 2026-11-21T18:30:00Z, or ahead: tomorrow, friday, next friday, \"in 2 weeks\".") var date: String?
        @Flag(help: "Remove the publish date.") var clear = false

        func validate() throws {
            if (date == nil) == !clear { throw ValidationError("Give a date, or --clear to remove it.") }
        }

        func run() throws {
            try Session.run(global, actor: who) { session in
                let when = try date.map { try Create.parseDate($0, session: session) }
                try session.submit(Submission(.episode(.text(episode), .setPublishDate(when))))
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete an episode.",
            discussion: """
                `episodic undo` brings it back.

                Examples:
                  episodic episode delete "Night Shift/3"
                  episodic undo --last                      brings it back
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var who: ActorOption
        @Argument(help: "The episode.", completion: .episodeNames) var episode: String

        func run() throws {
            try Session.run(global, actor: who) { session in try session.submit(Submission(.episode(.text(episode), .delete))) }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List a podcast's episodes, or every podcast's with --all, with their flags.",
            discussion: """
                Marks: ✓ present, – missing, ! outdated (made from a transcript or thumbnail inputs that changed since).

                Examples:
                  episodic episode list "Night Shift"
                  episodic episode list "Night Shift" --sort -date --limit 10   the latest ten
                  episodic episode list --all --missing transcript
                  episodic episode list "Night Shift" --outdated srt --json
                  episodic episode list "Night Shift" --deleted   with the command to undo
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The podcast.", completion: .podcastNames) var podcast: String?
        @Flag(help: "Every podcast's episodes, podcast by podcast (by name), each in the order --sort gives.") var all = false
        @Option(parsing: .unconditional, help: "number, -number, title, -title, date or -date (- for descending).")
        var sort: EpisodeSort = .default
        @Option(help: "Only episodes whose title holds this text (case and accents do not count).") var search: String?
        @Option(help: "Only episodes missing this: transcript, srt or thumbnail. Repeated: missing any of them.") var missing: [Missing] = []
        @Option(help: "Only episodes whose srt or thumbnail is outdated. Repeated: any of them outdated.") var outdated: [Outdated] = []
        @Option(parsing: .unconditional, help: "At most this many episodes.", transform: NumberArgument.whole(0...Int.max)) var limit: Int?
        @Flag(help: "The deleted episodes instead, each with the command that deleted it, which `episodic undo` takes.")
        var deleted = false
        @Option(parsing: .unconditional, help: "Skip this many first.", transform: NumberArgument.whole(0...Int.max)) var offset = 0

        func validate() throws {
            if (podcast == nil) == !all { throw ValidationError("Name a podcast, or give --all for every podcast's episodes.") }
            if deleted && (!missing.isEmpty || !outdated.isEmpty || search != nil || sort != .default) {
                throw ValidationError("--deleted lists the deleted episodes by number: leave out --missing, --outdated, --search and --sort.")
            }
        }

        func run() throws {
            try Session.run(global) { session in
                let library = try session.library()
                if deleted { return try listDeleted(library, session: session) }
                let filters = Set(missing.map(\.filter) + outdated.map(\.filter))
                let episodes: [EpisodeSummary]
                var names: [PodcastID: String] = [:]
                if let podcast {
                    let id = try library.resolve(PodcastReference.text(podcast))
                    episodes = try library.episodes(EpisodeQuery(
                        podcast: id, sort: sort, search: search, filters: filters, limit: limit, offset: offset))
                } else {
                    let podcasts = try library.podcasts().sorted { ($0.name.lowercased(), $0.id.description) < ($1.name.lowercased(), $1.id.description) }
                    for podcast in podcasts { names[podcast.id] = podcast.name }
                    let every = try podcasts.flatMap { try library.episodes(EpisodeQuery(podcast: $0.id, sort: sort, search: search, filters: filters)) }
                    episodes = Array(every.dropFirst(offset).prefix(limit ?? .max))
                }
                if global.json { return session.printJSON(episodes.map(EpisodeSummaryRecord.init)) }
                // On a narrow terminal the marks take short headings, then the id, the date and the
                // marks are left out, before the title is cut.
                var columns: [Table.Column] = [
                    .init(title: "#", alignRight: true), .init(title: "TITLE", flexible: true),
                    .init(title: "PUBLISHED", dropOrder: 1), .init(title: "TRANSCRIPT", short: "TR", dropOrder: 2),
                    .init(title: "SRT", dropOrder: 3), .init(title: "THUMBNAIL", short: "TH", dropOrder: 2),
                    .init(title: "ID", dropOrder: 0),
                ]
                if all { columns.insert(.init(title: "PODCAST", flexible: true), at: 0) }
                var table = Table(columns)
                for episode in episodes {
                    table.append((all ? [names[episode.podcastID] ?? "–"] : []) + [
                        "\(episode.number)", episode.title, episode.publishDate.map(TimeText.calendarDay) ?? "",
                        Marks.mark(episode.hasTranscript), Marks.mark(episode.hasSRT, outdated: episode.srtOutdated),
                        Marks.mark(episode.hasThumbnail, outdated: episode.thumbnailOutdated),
                        String(episode.id.description.prefix(8)),
                    ])
                }
                let filtered = !filters.isEmpty || search != nil || offset > 0
                let none = filtered ? "No episodes match."
                    : podcast.map { "No episodes yet in \"\($0)\". To make one: episodic episode create \(ShellWord.quoted($0)) <title>" }
                    ?? "No episodes yet."
                session.printTable(table, empty: TerminalText(none))
                if !episodes.isEmpty { Terminal.say(Marks.legend(width: Terminal.width)) }
            }
        }

        /// The deleted episodes, as they were numbered and titled, with the command that deleted each.
        private func listDeleted(_ library: Library, session: Session) throws {
            let id = try podcast.map { try library.resolve(PodcastReference.text($0)) }
            let deleted = Array(try library.deletedEpisodes(in: id).dropFirst(offset).prefix(limit ?? .max))
            if global.json { return session.printJSON(deleted.map { DeletedEpisodeRecord($0.episode, deletedBy: $0.deletedBy) }) }
            var names: [PodcastID: String] = [:]
            if all { for podcast in try library.podcasts() { names[podcast.id] = podcast.name } }
            var table = Table(
                (all ? [.init(title: "PODCAST", flexible: true)] : [])
                    + [.init(title: "#", alignRight: true), .init(title: "TITLE", flexible: true), .init(title: "ID"), .init(title: "DELETED BY")])
            for (episode, command) in deleted {
                table.append((all ? [names[episode.podcastID] ?? String(episode.podcastID.description.prefix(8))] : []) + [
                    "\(episode.number)", episode.title, String(episode.id.description.prefix(8)),
                    command.map { String($0.description.prefix(8)) } ?? "–",
                ])
            }
            session.printTable(table, empty: "No deleted episodes.")
            if deleted.count == 1, let command = deleted[0].deletedBy {
                Terminal.say("To bring it back: episodic undo \(command.description.prefix(8))")
            } else if deleted.count > 1 {
                Terminal.say("To bring one back: episodic undo <DELETED BY> (undoing a podcast's deletion brings back its episodes)")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show everything about one episode.",
            discussion: """
                Examples:
                  episodic episode show "Night Shift/3"
                  episodic episode show 98dddbb6                 by the start of its id
                  episodic episode show "Night Shift/3" --json
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The episode.", completion: .episodeNames) var episode: String

        func run() throws {
            try Session.run(global) { session in
                let library = try session.library()
                let id = try library.resolve(EpisodeReference.text(episode))
                guard let detail = try library.episodeDetail(id) else {
                    _ = try library.liveEpisode(id)  // the domain's words for a deleted or unknown episode
                    throw LibraryError.episodeNotFound(episode)
                }
                if global.json { return session.printJSON(EpisodeDetailRecord(detail)) }
                // From the read models, as the detail is: folding the podcast's stream would read its whole history.
                let podcast = try library.podcasts().first { $0.id == detail.podcastID }
                for line in EpisodeSheet.lines(detail, podcastName: podcast?.name, artwork: podcast?.artwork, times: session.times) {
                    Terminal.say(line)
                }
            }
        }
    }
}

enum Missing: String, ExpressibleByArgument, CaseIterable {
    case transcript, srt, thumbnail

    var filter: EpisodeFilter {
        switch self {
        case .transcript: .missingTranscript
        case .srt: .missingSRT
        case .thumbnail: .missingThumbnail
        }
    }
}

enum Outdated: String, ExpressibleByArgument, CaseIterable {
    case srt, thumbnail

    var filter: EpisodeFilter {
        switch self {
        case .srt: .outdatedSRT
        case .thumbnail: .outdatedThumbnail
        }
    }
}

extension EpisodeSort: ExpressibleByArgument {}
