import ArgumentParser
import Episodic

struct ProjectionsCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "projections", abstract: "See where the read models stand, and rebuild them from the log.",
        subcommands: [Status.self, Rebuild.self])

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Each read model's schema version and how far it has read the log.",
            discussion: """
                Examples:
                  episodic projections status
                  episodic projections status --json
                """)
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try Session.run(global) { session in
                let library = try session.library()
                let statuses = try library.projectionStatus()
                if global.json { return session.printJSON(statuses.map(ProjectionStatusRecord.init)) }
                var table = Table([
                    .init(title: "PROJECTION"), .init(title: "SCHEMA", alignRight: true), .init(title: "CHECKPOINT", alignRight: true),
                    .init(title: "HEAD", alignRight: true), .init(title: "STATE"),
                ])
                for status in statuses {
                    table.append(["\(status.name)", "\(status.schemaVersion)", "\(status.checkpoint)", "\(status.head)", status.stateText])
                }
                session.printTable(table, empty: "No projections.")
            }
        }
    }

    struct Rebuild: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rebuild",
            abstract: "Replay the log into fresh read models, then swap them in.",
            discussion: """
                The current read models stay readable until the swap. Projections: sidebar, episode-detail, search.

                Examples:
                  episodic projections rebuild --all
                  episodic projections rebuild search
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The projections to rebuild.") var names: [String] = []
        @Flag(help: "Rebuild every projection.") var all = false

        func validate() throws {
            if names.isEmpty == !all { throw ValidationError("Name the projections to rebuild, or give --all.") }
        }

        func run() throws {
            try Session.run(global) { session in
                let library = try session.library()
                let bar = ProgressBar("rebuilding", quiet: global.quiet)
                defer { bar.finish() }
                let chosen = all ? library.projectionNames : names
                let started = ContinuousClock.now
                try library.rebuildProjections(all ? nil : names, progress: bar.update)
                bar.finish()
                let seconds = (ContinuousClock.now - started).seconds
                if global.json {
                    return session.printJSON(RebuildRecord(rebuilt: chosen, events: library.head.rawValue, seconds: seconds))
                }
                Terminal.say("Rebuilt \(chosen.joined(separator: ", ")) from \(library.head.rawValue) events in \(String(format: "%.2f", seconds)) s.")
            }
        }
    }
}

private struct RebuildRecord: Encodable {
    var rebuilt: [String]
    var events: UInt64
    var seconds: Double
}
