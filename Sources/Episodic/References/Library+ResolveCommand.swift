import CoreValues
import EventLog
import PodcastDomain

extension Library {
    /// The command a reference names: a full id, or a prefix of exactly one command's id. A prefix is
    /// looked for in the whole log, newest first, so that every command it could mean is found.
    public func resolve(_ reference: CommandReference) throws -> CommandID {
        let text: String
        switch reference {
        case .id(let id): return id
        case .text(let given): text = given
        }
        if let id = CommandID(String(text.trimmingSpaces)) {
            guard try newestFirst(until: { $0.id == id }) != nil else { throw LibraryError.commandNotFound(text) }
            return id
        }
        guard let prefix = IDPrefix(text) else { throw LibraryError.commandNotFound(text) }
        var matches: [CommandSpan] = []
        _ = try newestFirst { span in
            if prefix.matches(span.id.description) { matches.append(span) }
            return false
        }
        guard let only = matches.first else { throw LibraryError.commandNotFound(text) }
        guard matches.count == 1 else {
            let length = ShortID.length(distinguishing: matches.map(\.id.description))
            throw LibraryError.ambiguous(text, candidates: try matches.prefix(10).map { span in
                let first = try firstEvent(of: span)
                return "\(span.id.description.prefix(length)) \(first.type) by \(span.actor) at \(first.timestamp.text)"
            })
        }
        return only.id
    }

    /// The envelope of a command's first event, as a record.
    func firstEvent(of span: CommandSpan) throws -> RecordedEvent {
        var first: RecordedEvent?
        try store.read(from: span.positions.lowerBound, through: span.positions.lowerBound) { first = RecordedEvent($0) }
        guard let first else { throw LibraryError.commandNotFound(span.id.description) }
        return first
    }
}
