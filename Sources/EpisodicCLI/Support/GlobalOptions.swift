import ArgumentParser
import Foundation

/// The options every subcommand takes: where the library is, who is acting, and how to print.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The library folder.", valueName: "path"))
    var library: String?

    @Flag(name: .long, help: "Print JSON for scripts (see schemas/cli-output.md).")
    var json = false

    @Flag(name: .shortAndLong, help: "Draw no progress bar.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also say what the log recorded: positions, event types, command ids.")
    var verbose = false

    @Flag(help: "Print times in UTC rather than in the local time zone ($TZ). --json is always UTC.")
    var utc = false

    @Flag(help: "Print long output (log, history) to the terminal directly, not through $PAGER (or less).")
    var noPager = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("How long to wait for another command that holds the library's lock, 0 to 86400.", valueName: "seconds"),
        transform: NumberArgument.decimal(lockTimeouts, "seconds"))
    var lockTimeout: Double = 10

    /// Up to a day: long enough for any rebuild, and far from what a Duration in milliseconds can hold.
    static let lockTimeouts: ClosedRange<Double> = 0...86_400

    /// `--lock-timeout` as a duration: the longest wait for the library's lock, and on a shared
    /// library's server for what other machines hold.
    var lockWait: Duration { .milliseconds(Int64(lockTimeout * 1000)) }

    /// `--library`, else `EPISODIC_LIBRARY`, else the XDG data directory.
    var libraryPath: String { Self.libraryPath(given: library) }

    /// `given`, else `EPISODIC_LIBRARY`, else the XDG data directory.
    static func libraryPath(given library: String?) -> String {
        if let library, !library.isEmpty { return library }
        if let path = Environment.value("EPISODIC_LIBRARY"), !path.isEmpty { return path }
        return dataHome + "/episodic"
    }

    /// The user's data folder: `$XDG_DATA_HOME` when it is an absolute path, else ~/.local/share.
    static var dataHome: String {
        if let data = Environment.value("XDG_DATA_HOME"), data.hasPrefix("/") { return data }
        return (Environment.value("HOME") ?? NSHomeDirectory()) + "/.local/share"
    }
}

/// Who is recorded as making a change, for the commands that make one.
struct ActorOption: ParsableArguments {
    @Option(help: ArgumentHelp("Who is recorded as making the change (default: $EPISODIC_ACTOR, else your login name).", valueName: "name"))
    var actor: String?

    var name: String { Self.resolve(actor) }

    /// `given`, else `EPISODIC_ACTOR`, else the login name.
    static func resolve(_ given: String?) -> String {
        if let given, !given.isEmpty { return given }
        if let actor = Environment.value("EPISODIC_ACTOR"), !actor.isEmpty { return actor }
        if let user = getpwuid(geteuid())?.pointee.pw_name { return String(cString: user) }
        return Environment.value("USER") ?? "unknown"
    }
}
