import ArgumentParser
import Episodic
import Foundation

/// A command that works on the library's files itself (creates, copies, backs up, restores or compacts
/// them) rather than through ``Session/library()``: the command line does not open its library ahead
/// of it (see ``LibraryPrefetch``).
protocol LibraryFilesCommand: ParsableCommand {}

/// The read models of the library a command line names, opened on a second thread while the command
/// line is parsed.
///
/// Parsing a command line takes about as long as opening the read models of the library it names
/// (3 to 4 ms each for a retitle: ArgumentParser reflects the command's type; opening attaches four
/// SQLite files, each reading its schema and indexing its WAL), and the opening needs nothing from the
/// parse but the library's path. So before parsing, the command line's words are read
/// for that path (`--library`, else the environment, as ``GlobalOptions`` finds it), and the read models'
/// files are opened on another core, while this one parses the command and then opens the log;
/// ``Session/library()`` checks them against the log and takes them. The thread ends as it hands them
/// over: compiling the write path's statements on their connection meanwhile made the command wait
/// for the connection.
///
/// The words are only a guess at what the parse will find, and the command may turn out to be invalid,
/// so opening ahead changes nothing in the library (`Library.openReadModelFiles(at:)`), and files that need a
/// rebuild, a repair or a replay are left to the session, which reports its progress. The session
/// takes them only for the library its parsed options name; otherwise, as for a command that opens no
/// library, the work is lost. Nothing is opened ahead for help, completions, the version, a command
/// group, a ``LibraryFilesCommand``, or a shared library.
final class LibraryPrefetch: @unchecked Sendable {
    /// The library whose read models are being opened, as ``GlobalOptions/libraryPath`` names it.
    let path: String
    /// Given by the opening thread as its last act.
    private let opened = Handoff()
    /// Set by the opening thread before it gives `opened`; read only once `opened` was waited for.
    private var files: Library.ReadModelFiles?

    /// Starts opening the read models of the library that `arguments` (without the program's name)
    /// name, if they name a command that opens one through a session (``opensLibrary(_:root:)``,
    /// found out on the other thread: the command types' configurations are built there); nil, and
    /// nothing started, when they may ask for something else (``libraryPath(_:)``).
    init?(_ arguments: [String], root: ParsableCommand.Type) {
        guard let path = Self.libraryPath(arguments) else { return nil }
        self.path = path
        DetachedThread.start { [self] in
            defer { opened.give() }
            guard Self.opensLibrary(arguments, root: root) else { return }
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

    /// The library `arguments` name, as ``GlobalOptions/libraryPath`` will find it once they are parsed;
    /// nil when they may ask for something other than a command (``CommandPath/asksForSomethingElse(_:)``).
    static func libraryPath(_ arguments: [String]) -> String? {
        guard !CommandPath.asksForSomethingElse(arguments) else { return nil }
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

    /// Whether `arguments` name a command that opens its library through a session: one with no
    /// subcommands, and not a ``LibraryFilesCommand``.
    static func opensLibrary(_ arguments: [String], root: ParsableCommand.Type) -> Bool {
        // Shared options may come before the subcommand's name (``LeadingOptions``).
        let (command, length) = CommandPath.walk(arguments[LeadingOptions.options(leading: arguments).end...], from: root)
        return length > 0 && command.configuration.subcommands.isEmpty && !(command is any LibraryFilesCommand.Type)
    }
}

extension LibraryPrefetch {
    /// The one this process started: a process runs one command.
    nonisolated(unsafe) private static var current: LibraryPrefetch?

    /// Starts opening the read models of the library the process's command line names (see ``init(_:root:)``).
    static func start(_ arguments: [String], root: ParsableCommand.Type) {
        guard current == nil else { return }
        current = LibraryPrefetch(arguments, root: root)
    }

    /// The read models' files the process opened ahead, if they are those of the library at `path`.
    static func take(path: String) -> Library.ReadModelFiles? {
        current?.take(path: path)
    }

    /// Waits for the process's opening to end, so that the process never exits while it runs: call it
    /// before exiting. Files no one took stay open until the process exits.
    static func finish() {
        current?.wait()
    }
}
