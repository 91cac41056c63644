import ArgumentParser
import Episodic
import Foundation

struct BackupCommand: LibraryFilesCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "Write a consistent snapshot of the library's log and blobs to one tar file.",
        discussion: """
            Safe while other commands write: the snapshot ends at a commit boundary, and the library is locked \
            only for a moment. Every frame, the hash chain, the library's head record and every blob are checked \
            on the way: a damaged library is refused (exit 74), unless --damaged, which archives it as it is \
            with a DAMAGED entry saying what is wrong (such an archive does not restore). The archive's HEAD \
            names its last commit, so that a restore refuses a log that ends anywhere else. `tar tf FILE` lists the archive; \
            `episodic restore FILE --library PATH` makes a library from it (schemas/log-format.md, §9). The \
            library notes when and where it was backed up (its LAST-BACKUP file), for `episodic info`.

            With - the archive goes to standard output, for a pipe (it is then not synced by Episodic, and the \
            summary goes to standard error).

            Examples:
              episodic backup night-shift.tar
              episodic backup night-shift.tar --force   replacing the one there
              episodic backup - | ssh nas 'cat > night-shift.tar'
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The archive to write, or - for standard output.", valueName: "file")) var file: String
    @Flag(help: "Replace the file if it already exists.") var force = false
    @Flag(help: "Back up a log that does not verify (a broken chain, lost or changed commits) as it is, saying so in the archive.")
    var damaged = false

    func validate() throws {
        if file == "-", Terminal.stdoutIsTerminal {
            throw ValidationError("Standard output is a terminal, which would take the archive's bytes for commands. Redirect it (> night-shift.tar) or pipe it.")
        }
        if file == "-", force { throw ValidationError("--force replaces a file; standard output has none to replace.") }
    }

    func runOnLibraryFiles() throws {
        try Session.run(global) { session in
            let toStream = file == "-"
            let library = try session.openLog()
            let (report, noteError) = toStream
                ? try library.backup(toStream: STDOUT_FILENO, named: "standard output", acceptingDamage: damaged)
                : try library.backup(to: file, replacing: force, acceptingDamage: damaged)
            for problem in report.damage {
                Terminal.printError("warning: backed up as it is, damaged: " + problem)
            }
            if let noteError {
                Terminal.printError("warning: the backup is whole, but the library could not note it for `episodic info`: "
                    + Advice.message(for: noteError, library: global.libraryPath))
            }
            // Standard output holds the archive: what is said goes to standard error.
            if global.json {
                let record = String(decoding: try Session.encoder.encode(BackupRecord(report)), as: UTF8.self)
                return toStream ? Terminal.printJSONError(record) : Swift.print(record)
            }
            // The archive's path is the user's, shown escaped as every name is.
            let said = "Backed up \(Amount.events(report.events)) (through position \(report.head)), "
                + "\(Amount.count(report.segments, "segment")) and \(Amount.count(report.blobs, "blob")) "
                + "to \(report.archive): \(Amount.bytes(report.bytes))."
            if toStream { Terminal.printError(line: TerminalText(said)) } else { Terminal.say(TerminalText(said)) }
        }
    }
}

struct RestoreCommand: LibraryFilesCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Create a library from a backup, verify it, and build its read models.",
        discussion: """
            The library (--library PATH) must not exist, or be an empty folder. Every entry of the archive is \
            checked before anything is written, and the log and blobs are verified before the library appears \
            at PATH; a damaged or unexpected archive leaves nothing behind.

            Examples:
              episodic restore night-shift.tar --library ~/restored
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The archive `episodic backup` wrote.", valueName: "file")) var file: String

    func runOnLibraryFiles() throws {
        try Session.run(global) { session in
            let bar = ProgressBar("rebuilding read models", quiet: global.quiet)
            let report = try Library.restore(archive: file, to: global.libraryPath, progress: bar.update)
            bar.finish()
            if global.json { return session.printJSON(RestoreRecord(report, archive: file)) }
            Terminal.say("Restored \(Amount.events(report.events)) (through position \(report.head)), "
                + "\(Amount.count(report.segments, "segment")) and \(Amount.count(report.blobs, "blob")) "
                + "into \(report.library). The log and blobs verified; the read models were rebuilt.")
        }
    }
}

private struct BackupRecord: Encodable {
    var archive: String
    var head: UInt64
    var events: UInt64
    var segments: Int
    var blobs: Int
    var bytes: UInt64
    /// What was wrong with the log, for `--damaged`; empty otherwise.
    var damage: [String]

    init(_ report: BackupReport) {
        archive = report.archive
        head = report.head.rawValue
        events = report.events
        segments = report.segments
        blobs = report.blobs
        bytes = report.bytes
        damage = report.damage
    }
}

private struct RestoreRecord: Encodable {
    var archive: String
    var library: String
    var head: UInt64
    var events: UInt64
    var segments: Int
    var blobs: Int
    var bytes: UInt64

    init(_ report: RestoreReport, archive: String) {
        self.archive = archive
        library = report.library
        head = report.head.rawValue
        events = report.events
        segments = report.segments
        blobs = report.blobs
        bytes = report.bytes
    }
}
