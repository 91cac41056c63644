import ArgumentParser
import Episodic

/// What an exit code tells a script, as `episodic --help` lists them.
enum ExitStatus: Int32 {
    case failure = 1
    case usage = 64
    /// A rule, a reference that matches nothing, or an input file that is not what it should be.
    case refused = 65
    /// No library at the path, or no such input file.
    case missing = 66
    /// The log, a blob or a read model is not what was written.
    case damaged = 74
    /// Another command changed the stream first, held the lock too long, or the disk is full: nothing
    /// was written; try again (after freeing space).
    case busy = 75
    /// A shared library's server did not accept the credentials or the role's rights: nothing was
    /// written (sysexits' EX_NOPERM).
    case denied = 77

    /// The code of each kind of error: one table, so that an exit code and a `--json` kind never disagree.
    init(_ kind: ErrorKind) {
        switch kind {
        case .usage: self = .usage
        case .refused: self = .refused
        case .missing: self = .missing
        case .damaged: self = .damaged
        case .busy: self = .busy
        case .denied: self = .denied
        case .failure: self = .failure
        }
    }

    /// The kind this code stands for, as JSON error reports name it.
    var kind: String {
        switch self {
        case .failure: ErrorKind.failure.rawValue
        case .usage: ErrorKind.usage.rawValue
        case .refused: ErrorKind.refused.rawValue
        case .missing: ErrorKind.missing.rawValue
        case .damaged: ErrorKind.damaged.rawValue
        case .busy: ErrorKind.busy.rawValue
        case .denied: ErrorKind.denied.rawValue
        }
    }

    /// The code of `error`'s kind (``ErrorKind/init(of:)``); ArgumentParser's validation errors are usage.
    init(for error: any Error) {
        self.init(error is ValidationError ? .usage : ErrorKind(of: error))
    }
}

/// A command line that parses but asks for something impossible.
struct UsageError: ClassifiedError, CustomStringConvertible {
    var description: String
    var kind: ErrorKind { .usage }
}

/// An input file that cannot be used.
struct InputError: ClassifiedError, CustomStringConvertible {
    var path: String
    var reason: String
    var isMissing = false

    var kind: ErrorKind { isMissing ? .missing : .refused }

    var description: String { "cannot use \(path): \(reason)" }
}
