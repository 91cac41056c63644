import ArgumentParser
import Episodic
import Foundation

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print a podcast or an episode as it stood at a point of the log.",
        discussion: """
            The log is folded up to that point; no read model is involved. Without --as-of, as it stands now.

            Examples:
              episodic show "Night Shift/3" --as-of 2026-11-21
              episodic show "Night Shift" --as-of 120            at position 120 of the log
              episodic show 98dddbb6 --as-of 2026-11-21T18:30:00Z
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The podcast or episode: an id (deleted ones too), an id prefix, a podcast's name, or <podcast>/<number>.", completion: .podcastAndEpisodeNames)
    var target: String
    @Option(parsing: .unconditional, help: ArgumentHelp("A position, or a time (2026-11-21, 2026-11-21T18:30:00Z, yesterday, \"2 hours ago\").", valueName: "position|time"))
    var asOf: String?

    func run() throws {
        try Session.run(global) { session in
            let library = try session.library()
            let bound = try asOf.map { try LogCommands.List.bound($0, session: session) } ?? .position(library.head)
            switch try library.resolveEntity(target) {
            case .podcast(let id):
                let (state, episodes) = try library.podcast(id, asOf: bound)
                if global.json { return session.printJSON(PodcastAsOf(state: Self.name(state), podcast: state.existing, episodes: episodes)) }
                guard let podcast = state.existing else { return Terminal.say("Podcast \(id) did not exist yet at \(bound).") }
                Terminal.say(TerminalText("podcast \"\(podcast.name)\" at \(bound)" + (state.live == nil ? " (deleted)" : "")))
                for line in PodcastSheet.lines(podcast, episodes: episodes.count, times: session.times) { Terminal.say(line) }
                for episode in episodes { Terminal.say(TerminalText("  #\(episode.number)  \(episode.title)")) }
            case .episode(let id):
                let (state, updatedAt) = try library.episodeWithTime(id, asOf: bound)
                if global.json { return session.printJSON(EpisodeAsOf(state: Self.name(state), episode: state.existing)) }
                guard let episode = state.existing else { return Terminal.say("Episode \(id) did not exist yet at \(bound).") }
                // The same lines as `episode show`, under a line that says when.
                let podcast = try library.podcastState(episode.podcastID, asOf: bound).existing
                let podcastName = podcast?.name
                Terminal.say(TerminalText(
                    "episode \"\(podcastName ?? "?")/\(episode.number)\" at \(bound)" + (state.live == nil ? " (deleted)" : "")))
                for line in EpisodeSheet.lines(episode, podcastName: podcastName, artwork: podcast?.artwork?.blob, updatedAt: updatedAt, times: session.times) {
                    Terminal.say(line)
                }
            }
        }
    }

    static func name<Value>(_ state: EntityState<Value>) -> String {
        switch state {
        case .initial: "none"
        case .active: "live"
        case .deleted: "deleted"
        }
    }
}

private struct PodcastAsOf: Encodable {
    var state: String
    var podcast: Podcast?
    var episodes: [Episode]
}

private struct EpisodeAsOf: Encodable {
    var state: String
    var episode: Episode?
}
