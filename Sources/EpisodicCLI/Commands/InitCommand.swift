import ArgumentParser
import Episodic
import Foundation

struct InitCommand: LibraryFilesCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create a library (or check that the one there can be opened).",
        discussion: """
            With --postgres, the library is shared: its log and blobs live in a schema on a PostgreSQL server, \
            for a team, and this folder is this machine's side of it (a copy of the log and the read models). \
            Teammates join with `episodic clone`. The password comes from PGPASSWORD or ~/.pgpass and is never \
            stored; add ?sslmode=require to the URL for TLS.

            Examples:
              episodic init                           where `episodic --version` says
              episodic init --library ~/night-shift
              episodic init --postgres postgres://db.example.com/studio --schema night
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var shared: SharedOptions

    @Option(help: ArgumentHelp("Create a shared library on this PostgreSQL server.", valueName: "url"))
    var postgres: String?

    func validate() throws {
        if postgres == nil && shared.schema != nil { throw ValidationError("--schema needs --postgres") }
    }

    func runOnLibraryFiles() throws {
        try Session.run(global) { session in
            let path = global.libraryPath
            if let postgres {
                let location = try shared.location(url: postgres)
                try Library.createShared(at: path, on: location, lockTimeout: global.lockWait)
                if global.json {
                    session.printJSON(InitRecord(library: path, created: true, shared: "\(location)"))
                } else {
                    Terminal.say(TerminalText("Created a shared library on \(location), with its side at \(path)."))
                }
                return
            }
            let existed = FileManager.default.fileExists(atPath: path + "/FORMAT")
            try Library.create(at: path)
            if global.json {
                session.printJSON(InitRecord(library: path, created: !existed, shared: nil))
            } else {
                Terminal.say(existed ? "A library is already at \(path); nothing changed." : "Created a library at \(path).")
            }
        }
    }
}

/// Which schema of the server holds the shared library.
struct SharedOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The schema that holds the shared library (default: episodic).", valueName: "name"))
    var schema: String?

    func location(url: String) throws -> SharedLocation {
        try SharedLocation(url: url, schema: schema ?? SharedLocation.defaultSchema)
    }
}

private struct InitRecord: Encodable {
    var library: String
    var created: Bool
    var shared: String?
}

struct CloneCommand: LibraryFilesCommand {
    static let configuration = CommandConfiguration(
        commandName: "clone", abstract: "Join a shared library: make this folder a copy of its log, with read models.",
        discussion: """
            The folder (--library) must be new or an empty library. The log is copied by position and checked as \
            it comes; blobs (transcripts, images) are fetched when first needed. Interrupted, run it again: it \
            carries on.

            Examples:
              episodic clone postgres://db.example.com/studio --schema night
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp("The PostgreSQL server's URL.", valueName: "url")) var url: String

    func runOnLibraryFiles() throws {
        try Session.run(global) { session in
            let location = try shared.location(url: url)
            let bar = ProgressBar("catching up", quiet: global.quiet)
            let started = ContinuousClock.now
            let library = try Library.clone(location, into: global.libraryPath, lockTimeout: global.lockWait, progress: bar.update)
            bar.finish()
            let events = library.head.rawValue
            let seconds = (ContinuousClock.now - started).seconds
            if global.json {
                session.printJSON(CloneRecord(library: global.libraryPath, shared: "\(location)", events: events, seconds: seconds))
            } else {
                Terminal.say(TerminalText(
                    "Cloned \(location) into \(global.libraryPath): \(Amount.events(events)) in \(String(format: "%.1f", seconds)) s."))
            }
        }
    }
}

private struct CloneRecord: Encodable {
    var library: String
    var shared: String
    var events: UInt64
    var seconds: Double
}

struct PushCommand: LibraryFilesCommand {
    static let configuration = CommandConfiguration(
        commandName: "push", abstract: "Move this library's log and blobs to a PostgreSQL server, and share it from there.",
        discussion: """
            The schema must be empty (or hold an interrupted push of this library, which carries on). Positions, \
            versions, ids and times are kept. The server's log is then hashed and compared with this library's; \
            only when they agree does this folder become the shared library's side. The read models stay as they are.

            Examples:
              episodic push postgres://db.example.com/studio
              episodic push "postgres://db.example.com/studio?sslmode=require"   over TLS
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp("The PostgreSQL server's URL.", valueName: "url")) var url: String

    func runOnLibraryFiles() throws {
        try Session.run(global) { session in
            let location = try shared.location(url: url)
            let library = try session.openLog()
            let bar = ProgressBar("pushing", quiet: global.quiet)
            let report = try library.push(to: location) { done, total in bar.update(done: Int(done), of: Int(total), unit: "events") }
            bar.finish()
            if global.json {
                session.printJSON(PushRecord(
                    library: global.libraryPath, shared: "\(location)", alreadyThere: report.alreadyThere, sent: report.sent,
                    blobs: report.blobs, logHash: report.logHash))
            } else {
                Terminal.say(TerminalText(
                    "Pushed \(Amount.events(report.sent)) and \(Amount.count(report.blobs, "blob")) to \(location)"
                        + (report.alreadyThere > 0 ? " (\(report.alreadyThere) were there from an earlier push)" : "")
                        + "; the server's log hashes as this library's (\(report.logHash.prefix(16))…). This folder is now its side."))
            }
        }
    }
}

private struct PushRecord: Encodable {
    var library: String
    var shared: String
    var alreadyThere: UInt64
    var sent: UInt64
    var blobs: Int
    var logHash: String
}
