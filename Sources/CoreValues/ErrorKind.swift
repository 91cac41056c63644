/// What a caller can do about an error, in seven kinds: every public error of Episodic has exactly one
/// (``ClassifiedError``). A command line turns the kind into its exit code; a batch that goes on past
/// refusals goes on past ``refused`` and nothing else. The raw values are the `kind` the CLI prints with
/// `--json` (schemas/cli-output.md).
public enum ErrorKind: String, Sendable, Hashable, CaseIterable {
    /// The request itself is impossible as asked (a combination of options, a value outside its range):
    /// change how it is asked.
    case usage
    /// A rule, a reference that matches nothing or several things, an input that is not what it should
    /// be: nothing was written; change the input.
    case refused
    /// The library, or an input file or archive, is not where it was said to be.
    case missing
    /// The log, a blob or a read model is not what was written: restore or rebuild it.
    case damaged
    /// Another writer was first (a version conflict, the lock held too long) or the disk is full:
    /// nothing was written; the same request can work later.
    case busy
    /// A server did not accept who is asking or what they asked to do (a wrong or missing password, a
    /// role without the right): nothing was written; the credentials or the grants must change.
    case denied
    /// Anything else: the system said no, or this build cannot do it.
    case failure
}

/// An error that knows its ``ErrorKind``. Its description says what is wrong in the terms of the layer
/// that found it; what to type next is the front end's to add.
public protocol ClassifiedError: Error {
    var kind: ErrorKind { get }
}
