import ArgumentParser
import Episodic
import Foundation

/// A command that works on the library's files itself (creates, copies, backs up, restores or compacts
/// them) rather than through ``Session/library()``: what the command line opened ahead of it is let go
/// before it starts (see ``LibraryPrefetch``), so that no claim of this process keeps a file it replaces.
protocol LibraryFilesCommand: ParsableCommand {
    /// The command's work, once nothing opened ahead holds the library's files. A conforming type
    /// implements this, never `run()`, which is the protocol's.
    func runOnLibraryFiles() throws
}

extension LibraryFilesCommand {
    func run() throws {
        LibraryPrefetch.discard()
        try runOnLibraryFiles()
    }
}

/// The read models of the library a command line names, opened on a second thread while the command
/// line is parsed.
///
/// Parsing a command line takes about as long as opening the read models of the library it names
/// (2 to 3 ms each for a retitle: ArgumentParser reflects the command's type; opening attaches three
/// SQLite files to a connection on the manifest, each reading its schema and indexing its WAL), and
/// the opening needs nothing from the parse but the library's path. So before parsing, the command
/// line's words are read for that path (`--library`, else the environment, as ``GlobalOptions`` finds
/// it), and the read models' files are opened on another core, while this one parses the command and
/// then opens the log; ``Session/library()`` checks them against the log and takes them, and a change
/// (``Session/changing(_:)``) takes them once it holds the writer lock, having caught up with the log
/// meanwhile. The thread ends as it hands them over.
///
/// The words are only a guess at what the parse will find, and the command may turn out to be invalid,
/// a command group, or one that opens no library, so opening ahead changes nothing in the library
/// (`Library.openReadModelFiles(at:)`), and files that need a rebuild, a repair or a replay are left to
/// the session, which reports its progress. The session takes them only for the library its parsed
/// options name; otherwise the work is lost. Which command the words name is not looked up first: that
/// reflects the commands' types, which the parse does anyway, and cost a retitle 0.2 ms. A
/// ``LibraryFilesCommand`` lets the files go before it starts. Nothing is opened ahead for help,
/// completions, the version, or a shared library.
final class LibraryPrefetch: @unchecked Sendable {
    /// The library whose read models are being opened, as ``GlobalOptions/libraryPath`` names it.
    let path: String
    /// Given by the opening thread as its last act.
    private let opened = Handoff()
    /// Set by the opening thread before it gives `opened`; read only once `opened` was waited for.
    private var files: Library.ReadModelFiles?

    /// Starts opening the read models of the library that `arguments` (without the program's name)
    /// name; nil, and nothing started, when they may ask for something other than a command
    /// (``libraryPath(_:)``).
    init?(_ arguments: [String]) {
        guard let path = Self.libraryPath(arguments) else { return nil }
        self.path = path
        DetachedThread.start { [self] in
            defer { opened.give() }
            files = try? Library.openReadModelFiles(at: path)
        }
    }

    /// The read models' files opened ahead, once they are, if they are those of the library at `path`;
    /// nil otherwise, and for every call after the first that returned them.
    func take(path: String) -> Library.ReadModelFiles? {
        guard let files = wait(), path == self.path else { return nil }
        self.files = nil
        return files
    }

    /// Waits until the opening has ended, whatever its outcome; returns the files if no one took them.
    @discardableResult
    func wait() -> Library.ReadModelFiles? {
        opened.wait()
        return files
    }

    /// Waits until the opening has ended, then closes what it opened and no one took, letting go of
    /// its claims on the library's files.
    func discard() {
        wait()
        files = nil
    }

    /// The library `arguments` name, as ``GlobalOptions/libraryPath`` will find it once they are parsed;
    /// nil when they may ask for something other than a command (``CommandPath/asksForSomethingElse(_:)``).
    static func libraryPath(_ arguments: [String]) -> String? {
        // No words, or ArgumentParser's `help` command, print the help.
        guard let first = arguments.first, first != "help", !CommandPath.asksForSomethingElse(arguments) else { return nil }
        let words = arguments.prefix { $0 != "--" }
        var given: String?
        for (index, word) in zip(words.indices, words) {
            if word.hasPrefix("--library=") {
                given = String(word.dropFirst("--library=".count))
            } else if word == "--library", index + 1 < words.endIndex {
                given = words[index + 1]
            }
        }
        return GlobalOptions.libraryPath(given: given)
    }
}

extension LibraryPrefetch {
    /// The one this process started: a process runs one command.
    nonisolated(unsafe) private static var current: LibraryPrefetch?

    /// Starts opening the read models of the library the process's command line names (see ``init(_:)``).
    static func start(_ arguments: [String]) {
        guard current == nil else { return }
        current = LibraryPrefetch(arguments)
    }

    /// The read models' files the process opened ahead, if they are those of the library at `path`.
    static func take(path: String) -> Library.ReadModelFiles? {
        current?.take(path: path)
    }

    /// Whether the process is opening ahead the read models of the library at `path`.
    static func isOpening(path: String) -> Bool {
        current?.path == path
    }

    /// Waits for the process's opening to end, so that the process never exits while it runs: call it
    /// before exiting. Files no one took stay open until the process exits.
    static func finish() {
        current?.wait()
    }

    /// Lets go of what the process opened ahead (see ``discard()``).
    static func discard() {
        current?.discard()
    }
}
