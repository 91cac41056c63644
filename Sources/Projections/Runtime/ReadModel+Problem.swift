import EventLog

extension ReadModel {
    /// Why the live read model cannot be used as it is.
    enum Problem: Equatable {
        /// No `read.sqlite`, or it points at a generation that is not there: a new library, or one whose
        /// read models were deleted.
        case missing
        /// `read.sqlite` is not a link to a generation (a file, a link elsewhere): never followed.
        case invalidLink(String)
        /// SQLite cannot open `generation`, or reports it malformed; or one of its files is missing.
        case damaged(String, generation: Generation)
        /// Something other than a file (a folder) stands where `generation` has a file, a companion of
        /// one (a WAL), or its folder: SQLite cannot use it as it is, nor a rebuild replace it.
        case notAFile(String, generation: Generation)
        /// The generation cannot be opened by this process (read-only, without the files SQLite needs to
        /// read a WAL database; a full disk): nothing is wrong with it.
        case unreadable(String)
        /// Made by a build that did not record the identity of the event at each checkpoint.
        case olderCheckpoints
        /// Made by a build that kept every projector's tables in one file (see ``Generation/isSingleFile``).
        case singleFile
        /// A checkpoint beyond the log's head: the log was restored from an older copy, or (`tail`) it
        /// ends in damaged bytes where the events the read model had read should be.
        case ahead(checkpoint: UInt64, head: UInt64, tail: UnreadableTail?)
        /// The event at a checkpoint is not the one the read model recorded: the log was replaced.
        case diverged(position: UInt64, recorded: EventIdentity?)
        /// Projectors whose stored schema version is not this build's (or that are not there at all).
        case staleSchema([String])

        var reason: String {
            switch self {
            case .missing: "there was no read model"
            case .invalidLink(let why): why
            case .damaged(let why, _): "SQLite reports it malformed (\(why))"
            case .notAFile(let why, _): why
            case .unreadable(let why): why
            case .olderCheckpoints: "it was made by an older build, which did not record which event each checkpoint stands on"
            case .singleFile: "it was made by an older build, which kept every read model in one file"
            case let .ahead(checkpoint, head, nil):
                "it had read the log up to position \(checkpoint), beyond the log's head at \(head) (was the log restored from an older copy?)"
            case let .ahead(checkpoint, head, tail?):
                "it had read the log up to position \(checkpoint), but the log can be read only up to position \(head): \(tail)"
            case .diverged(let position, _):
                "the event at position \(position) is not the one it had read there (was the log replaced?)"
            case .staleSchema(let names): "\(names.joined(separator: ", ")) changed schema"
            }
        }

        /// Whether the read model is evidence that the log lost or changed acknowledged commits: it stands
        /// beyond the log's head, or on another event than the log holds there. It is kept as it is.
        var isEvidenceOfLoss: Bool {
            switch self {
            case .ahead, .diverged: true
            default: false
            }
        }

        /// What becomes of a read model that is evidence of a loss, which is never rebuilt over.
        var keptAhead: String {
            guard case .ahead(_, _, let tail) = self, tail != nil else {
                return "it is kept as it is, as a witness of commits the log no longer holds as they were; commands that write "
                    + "are refused until the library is restored from a backup or the loss is accepted"
            }
            return "it is kept as it is, as a witness that the damaged commit was acknowledged; commands that write are refused "
                + "until the log is repaired"
        }

        /// What the user can do about a read model that is evidence of a loss.
        var remedyAhead: ReadModelRemedy { .repairLog }

        /// The refusal a writer meets when the read model is evidence of a loss; nil otherwise. A
        /// damaged tail is left to the log's own refusal, which names where it lies.
        func loss(log: EventLog) -> EventLogError? {
            switch self {
            case let .ahead(checkpoint, head, nil):
                return .lostCommits(lost: LogPosition(head).next...LogPosition(checkpoint), witness: "the read models")
            case let .diverged(position, recorded):
                let found = (try? log.identity(at: LogPosition(position)))??.rawValue ?? "nothing"
                return .alteredCommit(
                    position: LogPosition(position), witness: "the read models", found: found, recorded: recorded?.rawValue ?? "another event")
            default:
                return nil
            }
        }

        /// The word a set-aside generation is named with; nil when the generation is not kept.
        var setAsideName: String? {
            switch self {
            case .damaged, .notAFile: "damaged"
            case .ahead: "ahead"
            case .diverged: "diverged"
            default: nil
            }
        }

        /// Whether the user hears of the rebuild: not of a first build, nor of an upgrade's (it draws
        /// a progress bar).
        var isWorthANotice: Bool {
            switch self {
            case .missing, .staleSchema, .singleFile, .unreadable: false
            default: true
            }
        }
    }
}
