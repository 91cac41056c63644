import ArgumentParser
import Episodic
import Foundation

/// A command that works on the library's files itself (creates, copies, backs up, restores or compacts
/// them) rather than through ``Session/library()``: the command line does not open its library ahead
/// of it (see ``LibraryPrefetch``).
protocol LibraryFilesCommand: ParsableCommand {}

/// The library a command line names, opened on a second thread while the command line is parsed.
///
/// Parsing a command line takes about as long as opening the library it names (about 4 ms each for a
/// retitle: ArgumentParser reflects every command type on the way, and opening reads the log's segment
/// headers and attaches four SQLite files), and opening needs nothing from the parse but the library's
/// path. So before parsing, the command line's words are read for that path (`--library`, else the
/// environment, as ``GlobalOptions`` finds it), and the library is opened on another core, for
/// ``Session/library()`` to take once the command runs.
///
/// The words are only a guess at what the parse will find, and the command may turn out to be invalid,
/// so opening ahead changes nothing in the library: the read models are opened only if they can be used
/// as they are (`Library.openReadModelsIfSound()`); a rebuild or a replay is left to the session, which
/// reports its progress. The session takes the library only if its parsed options name the same one,
/// opened the same way; otherwise, as for a command that opens no library, the work is lost. Nothing is
/// opened ahead for help, completions, the version, a command group, or a ``LibraryFilesCommand``.
final class LibraryPrefetch: @unchecked Sendable {
    /// The library being opened, as ``GlobalOptions/libraryPath`` names it.
    let path: String
    private let opened = DispatchSemaphore(value: 0)
    /// Set by the opening thread before it signals `opened`; read only once `opened` was waited for.
    private var library: Library?
    private var finished = false

    /// Starts opening the library that `arguments` (without the program's name) name; nil, and nothing
    /// started, when they name no command that opens one through a session (``libraryPath(_:root:)``).
    init?(_ arguments: [String], root: ParsableCommand.Type) {
        guard let path = Self.libraryPath(arguments, root: root) else { return nil }
        self.path = path
        Thread.detachNewThread { [self] in
            defer { opened.signal() }
            guard let library = try? Library(at: path) else { return }
            // Kept even when its read models are not sound: the log is open, which is part of the work.
            _ = try? library.openReadModelsIfSound()
            self.library = library
        }
    }

    /// The library opened ahead, once it is, if it is the one at `path` opened with `lockTimeout`; nil
    /// otherwise, and for every call after the first that returned it.
    func take(path: String, lockTimeout: Duration) -> Library? {
        guard let library = wait(), path == self.path, library.log.options.lockTimeout == lockTimeout else { return nil }
        self.library = nil
        return library
    }

    /// Waits until the opening has ended, whatever its outcome; returns the library if no one took it.
    @discardableResult
    func wait() -> Library? {
        if !finished {
            opened.wait()
            finished = true
        }
        return library
    }

    /// The words that ask for something other than running a command: help, the version, completions.
    private static let notACommand: Set<String> = ["-h", "--help", "--version", "--experimental-dump-help"]

    /// The library `arguments` name, as ``GlobalOptions/libraryPath`` will find it once they are parsed;
    /// nil when they name no command that opens a library through a session, or when they may ask for
    /// something else (help, the version, completions: ArgumentParser reads those words anywhere before
    /// a `--`).
    static func libraryPath(_ arguments: [String], root: ParsableCommand.Type) -> String? {
        let words = Array(arguments.prefix { $0 != "--" })
        guard !words.contains(where: { notACommand.contains($0) || $0.hasPrefix("---") || $0.hasPrefix("--generate-completion-script") })
        else { return nil }
        // Shared options may come before the subcommand's name (``LeadingOptions``).
        let (command, length) = CommandPath.walk(words[LeadingOptions.options(leading: words).end...], from: root)
        guard length > 0, command.configuration.subcommands.isEmpty, !(command is any LibraryFilesCommand.Type) else { return nil }
        var given: String?
        for (index, word) in words.enumerated() {
            if word.hasPrefix("--library=") {
                given = String(word.dropFirst("--library=".count))
            } else if word == "--library", index + 1 < words.count {
                given = words[index + 1]
            }
        }
        return GlobalOptions.libraryPath(given: given)
    }
}

extension LibraryPrefetch {
    /// The one this process started: a process runs one command.
    nonisolated(unsafe) private static var current: LibraryPrefetch?

    /// Starts opening the library the process's command line names (see ``init(_:root:)``).
    static func start(_ arguments: [String], root: ParsableCommand.Type) {
        guard current == nil else { return }
        current = LibraryPrefetch(arguments, root: root)
    }

    /// The library the process opened ahead, if it is the one at `path` opened with `lockTimeout`.
    static func take(path: String, lockTimeout: Duration) -> Library? {
        current?.take(path: path, lockTimeout: lockTimeout)
    }

    /// Waits for the process's opening to end, so that the process never exits while it runs: call it
    /// before exiting. A library no one took stays open until the process exits.
    static func finish() {
        current?.wait()
    }
}
