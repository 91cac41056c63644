import Synchronization

/// Something that stood in the place of a file or folder derived from the log (the stream index, the
/// segment catalog, a kept fold, or their folders), and was moved out of its way so that the derived
/// one could be made again: a folder where a file belongs, a file where a folder belongs. It is kept,
/// never deleted, for whoever put it there; nothing reads it again.
public struct SetAsideDerivedFile: Sendable, Equatable, CustomStringConvertible {
    /// Where it stood, relative to the library (`index/streams.tail`).
    public var place: String
    /// Where it is now, relative to the library (`index/streams.tail.damaged`).
    public var keptAs: String
    /// What it is, in words (`a folder`, `a file`).
    public var found: String

    public var description: String {
        "\(found) stood in the place of \(place), which is derived from the log: it was kept as \(keptAs), and \(place) "
            + "made again; delete it when you no longer need it."
    }
}

/// What one library's derived folders had set aside, in order, for the caller to tell the user.
final class SetAsideDerivedFiles: Sendable {
    private let found = Mutex<[SetAsideDerivedFile]>([])

    var all: [SetAsideDerivedFile] { found.withLock { $0 } }

    func note(_ setAside: SetAsideDerivedFile) {
        found.withLock { $0.append(setAside) }
    }
}
