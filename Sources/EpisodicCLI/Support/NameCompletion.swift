import ArgumentParser
import Episodic
import Foundation

/// Tab completion of podcast and episode names (`Night Shift`, `Night Shift/3`), for the scripts
/// `episodic --generate-completion-script` prints. The shell runs `episodic ---completion …` at each Tab,
/// so this reads the library without writing anything, and offers nothing, silently, when there is no
/// library or it cannot be read.
enum NameCompletion {
    static func podcasts(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        offered(words, episodes: false) { [$0.podcast] }
    }

    static func episodes(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        offered(words, episodes: true) { names in names.episodes.map { "\(names.podcast)/\($0)" } }
    }

    static func podcastsAndEpisodes(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        offered(words, episodes: true) { names in [names.podcast] + names.episodes.map { "\(names.podcast)/\($0)" } }
    }

    /// The names `each` makes of every podcast, written for the shell that asked; none on any error.
    private static func offered(_ words: [String], episodes: Bool, _ each: (PodcastNames) -> [String]) -> [String] {
        let library = GlobalOptions.libraryPath(given: library(in: words))
        guard let names = try? Library.names(at: library, episodes: episodes) else { return [] }
        // A name with a control character (older logs may hold one) cannot be typed, and would break the list.
        let typable = names.flatMap(each).filter { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }
        return typable.map { written($0, for: CompletionShell.requesting) }
    }

    /// `--library PATH` or `--library=PATH` among the words typed so far, as the shell will read it.
    static func library(in words: [String]) -> String? {
        var given: String?
        for (index, word) in words.enumerated() {
            if word == "--library", index + 1 < words.count { given = words[index + 1] }
            if word.hasPrefix("--library=") { given = String(word.dropFirst("--library=".count)) }
        }
        return given.map(unquoted)
    }

    /// A shell word as typed (quotes and backslashes included, as the shell passes it to completion)
    /// as the command will receive it; `~/` at the start is the home folder.
    static func unquoted(_ word: String) -> String {
        var result = ""
        var quote: Character?
        var escaped = false
        for character in word {
            if escaped {
                result.append(character)
                escaped = false
            } else if character == "\\" && quote != "'" {
                escaped = true
            } else if character == "'" || character == "\"", quote == nil || quote == character {
                quote = quote == nil ? character : nil
            } else {
                result.append(character)
            }
        }
        if word == "~" || word.hasPrefix("~/"), let home = Environment.value("HOME") {
            result = home + result.dropFirst()
        }
        return result
    }

    /// `name` as the completion script of `shell` must receive it to offer it unchanged: bash expands
    /// each word it is given (`$(…)` in a name would run), so it gets it single-quoted; zsh reads `:` as
    /// the start of a description.
    static func written(_ name: String, for shell: CompletionShell?) -> String {
        if shell == .bash { return "'" + name.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        if shell == .zsh { return name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:") }
        return name
    }
}

extension CompletionKind {
    /// Podcasts by name.
    static var podcastNames: CompletionKind { .custom(NameCompletion.podcasts) }
    /// Episodes as `<podcast>/<number>`.
    static var episodeNames: CompletionKind { .custom(NameCompletion.episodes) }
    /// Both, for what names either.
    static var podcastAndEpisodeNames: CompletionKind { .custom(NameCompletion.podcastsAndEpisodes) }
}
