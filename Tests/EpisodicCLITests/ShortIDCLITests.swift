import Foundation
import Testing

/// Every id the CLI prints can be typed back by its start, as git takes short commit ids.
@Suite("Short ids: prefixes of podcasts, episodes (deleted too) and commands")
struct ShortIDCLITests {
    /// A library with a podcast and 17 episodes made by one script: 18 entity ids and 18 command ids,
    /// so that at least two of each share their first hex digit.
    private static func library() throws -> (cli: CLI, entities: [String: String], commands: [String]) {
        let cli = CLI()
        try cli.must("init")
        let lines = ["{\"command\":\"podcast.create\",\"name\":\"Garden Hour\"}"]
            + (1...17).map { "{\"command\":\"episode.create\",\"podcast\":\"Garden Hour\",\"title\":\"Episode \($0)\"}" }
        let script = try cli.write(lines.joined(separator: "\n"), to: "script.jsonl")
        let outcomes = try cli.must("submit", script, "--json").jsonLines()
        var entities: [String: String] = [:]
        for (index, outcome) in outcomes.enumerated() {
            entities[outcome["created"] as! String] = index == 0 ? "Garden Hour" : "Episode \(index)"
        }
        return (cli, entities, outcomes.map { $0["commandID"] as! String })
    }

    /// A first character that at least two of `ids` start with.
    private static func sharedFirst(_ ids: some Collection<String>) -> String {
        let counts = Dictionary(grouping: ids, by: { String($0.prefix(1)) })
        return counts.first { $0.value.count > 1 }!.key
    }

    @Test("A deleted episode by a prefix of its id: show, history and undo find it")
    func deletedEpisode() throws {
        let (cli, entities, _) = try Self.library()
        let episode = entities.first { $0.value == "Episode 3" }!.key
        let deleted = try cli.object("episode", "delete", "Garden Hour/3")
        let prefix = String(episode.prefix(8))

        let shown = try cli.must("show", prefix).out
        #expect(shown.contains("(deleted)") && shown.contains("Episode 3"))
        #expect(try cli.must("history", prefix).out.contains("deleted"))
        // The delete's command by the first 8 characters of its id, as the delete printed them.
        let command = String((deleted["commandID"] as! String).prefix(8))
        #expect(try cli.must("log", "--command", command).out.split(separator: "\n").count == 1)
        #expect(try cli.must("undo", command).out.hasPrefix("Undid: deleted episode \"Garden Hour/3\" (\"Episode 3\")"))
        #expect(try cli.must("episode", "show", prefix).out.contains("Episode 3"))
    }

    @Test("An ambiguous prefix lists every candidate with its name; one that matches nothing says so")
    func ambiguous() throws {
        let (cli, entities, commands) = try Self.library()
        let first = Self.sharedFirst(entities.keys)
        let refused = try cli.run("show", first)
        #expect(refused.status == 65)
        #expect(refused.err.contains("\"\(first)\" could mean any of:"))
        for (id, name) in entities where id.hasPrefix(first) {
            #expect(refused.err.contains(String(id.prefix(8))) && refused.err.contains("\"\(name)\""), "\(refused.err)")
        }
        // Commands: listed with what they appended, by whom.
        let command = Self.sharedFirst(commands)
        let undo = try cli.run("undo", command)
        #expect(undo.status == 65 && undo.err.contains("could mean any of:") && undo.err.contains("Created by tester"))
        for id in commands where id.hasPrefix(command) { #expect(undo.err.contains(String(id.prefix(8)))) }

        let none = try cli.run("undo", "zz")
        #expect(none.status == 65 && none.err.contains("no command in the log has an id starting with \"zz\""))
        let typo = try cli.run("episode", "list", "Gardn Hour")
        #expect(typo.status == 65 && typo.err.contains("Did you mean \"Garden Hour\"?"))
    }
}
