import ArgumentParser
import Episodic

struct TodoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todo", abstract: "What needs work, across every podcast, each with the command that does it.",
        discussion: """
            Lists the episodes missing a transcript, subtitles or a thumbnail, those whose subtitles or thumbnail \
            are outdated, and those that publish within a week (--within), soonest first; under each, the \
            command that does what it needs. Only reads.

            Examples:
              episodic todo
              episodic todo --podcast "Night Shift" --within 14
              episodic todo --json   for scripts
            """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "Only this podcast's episodes.", completion: .podcastNames) var podcast: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Days ahead that count as publishing soon, 0 to 3650.", valueName: "days"),
            transform: NumberArgument.whole(0...3_650))
    var within = 7

    func run() throws {
        try Session.run(global) { session in
            let library = try session.library()
            let podcast = try podcast.map { try library.resolve(PodcastReference.text($0)) }
            let todos = try library.todo(in: podcast, publishingWithin: Double(within) * 86_400, now: session.now)
            if global.json { return session.printJSON(todos.map(TodoRecord.init)) }
            guard !todos.isEmpty else {
                return Terminal.say("Nothing to do: every episode has its transcript, subtitles and thumbnail, up to date, "
                    + "and none publishes within \(Amount.count(within, "day")).")
            }
            for todo in todos {
                let episode = todo.episode
                let publishing = todo.publishesSoon ? "  publishes " + TimeText.calendarDay(episode.publishDate!) : ""
                Terminal.say("\(todo.podcastName)/\(episode.number)  \(episode.title)\(publishing)")
                let needs = todo.needs.map { (Self.what($0), Self.command($0.task, for: todo)) }
                let width = needs.map(\.0.count).max() ?? 0
                for (what, command) in needs {
                    Terminal.say("  \(what.padding(toLength: width, withPad: " ", startingAt: 0))  \(command)")
                }
                if needs.isEmpty { Terminal.say("  ready") }
            }
        }
    }

    /// What is missing or outdated, in words.
    static func what(_ need: EpisodeTodo.Need) -> String {
        switch (need.task, need.outdated) {
        case (.importTranscript, _): "no transcript"
        case (.convertTranscript, false): "no subtitles"
        case (.convertTranscript, true): "subtitles outdated"
        case (.setBackground, _): "no thumbnail, no background"
        case (.renderThumbnail, false): "no thumbnail"
        case (.renderThumbnail, true): "thumbnail outdated"
        }
    }

    /// The command that does `task`, ready to paste (a file or an image is left for the user to name).
    static func command(_ task: EpisodeTask, for todo: EpisodeTodo) -> String {
        let episode = ShellWord.quoted("\(todo.podcastName)/\(todo.episode.number)")
        return switch task {
        case .importTranscript: "episodic transcript import \(episode) <file>"
        case .convertTranscript: "episodic transcript convert \(episode)"
        case .setBackground: "episodic thumbnail background \(episode) <image>"
        case .renderThumbnail: "episodic thumbnail render \(episode)"
        }
    }
}

/// An episode that needs work, for `todo --json`.
private struct TodoRecord: Encodable {
    struct Need: Encodable {
        var task: String
        var outdated: Bool
        var command: String
    }

    var episodeID: String
    var podcastID: String
    var podcastName: String
    var number: Int
    var title: String
    var publishDate: Timestamp?
    var publishesSoon: Bool
    var needs: [Need]

    init(_ todo: EpisodeTodo) {
        episodeID = todo.episode.id.description
        podcastID = todo.episode.podcastID.description
        podcastName = todo.podcastName
        number = todo.episode.number
        title = todo.episode.title
        publishDate = todo.episode.publishDate
        publishesSoon = todo.publishesSoon
        needs = todo.needs.map { Need(task: $0.task.rawValue, outdated: $0.outdated, command: TodoCommand.command($0.task, for: todo)) }
    }
}
