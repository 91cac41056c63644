import Episodic

/// What the CLI says about an error: the library's message, which says what is wrong, and then what
/// to type next, which only the CLI knows. The one place where an error gets its command-line advice.
enum Advice {
    /// The whole message for `error`, as printed after `error: ` (and as the `message` of `--json`).
    /// `library` is the path the user gave, which a missing library is named by. `rebuilt`: the
    /// read models were rebuilt from the log since the error (a write that meets a damaged read model
    /// rebuilds it before it fails), so a damaged one is mended already.
    static func message(for error: any Error, library: String, rebuilt: Bool = false) -> String {
        if case EventLogError.libraryMissing = error {
            return "no library at \(library). Create one with `episodic init`, "
                + "or point --library or EPISODIC_LIBRARY at an existing one."
        }
        if let failure = error as? SubmitFailure { return message(for: failure.error, library: library, rebuilt: rebuilt) }
        if case UndoError.conflicts(let id, let conflicts) = error {
            return ([UndoError.conflictsHeadline(id)] + conflicts.map { "  - \($0)" } + [undoConflicts]).joined(separator: "\n")
        }
        if let full = ReadModelFailure.diskFull(error) { return full.description }
        if ReadModelFailure.isMalformed(error) {
            if rebuilt { return "the read model was damaged (\(error)); it has been rebuilt from the log since: run the command again." }
            return "the read model is damaged (\(error)). It was set aside, if it could be, and the next command rebuilds it "
                + "from the log; `episodic projections rebuild --all` does it now."
        }
        let text = "\(error)"
        guard let hint = hint(for: error) else { return text }
        return text + " " + hint
    }

    /// What to type about read models the log does not vouch for.
    static func hint(for remedy: ReadModelRemedy) -> String {
        switch remedy {
        case .rebuild: "`episodic projections rebuild --all` rebuilds them now."
        case .repairLog: "`episodic log verify` says where the log stops; `episodic log repair` says how to mend it."
        }
    }

    /// What to do about what the shared library's server said.
    static func hint(for error: SharedLogError) -> String? {
        switch error {
        case .rowsPastHead:
            "`episodic log repair` shows them, and sets them aside with --set-aside-server-rows."
        case .chainBroken, .serverChanged:
            "`episodic log verify` lists what the server holds otherwise. Restore the server's database from a backup "
                + "made before the change; this machine's copy holds the rows as they were written."
        case .olderSchema:
            "The schema's owner upgrades it by running any episodic command on it (`episodic log verify`)."
        case .outcomeUnknown:
            "`episodic log -n 5` shows the last changes."
        case .lockTimedOut:
            "`--lock-timeout <seconds>` waits longer."
        case .noSharedLibrary:
            "`episodic init --postgres <url>` creates one."
        case .schemaNotEmpty:
            "`--schema <name>` names another schema; `episodic clone <url>` copies that library."
        case .outOfStep, .digestsAltered:
            "`episodic log verify` compares the server with this machine's copy."
        case .denied:
            "Check the user and the password (the URL, PGPASSWORD, or ~/.pgpass with mode 0600), or have the schema's owner "
                + "grant the role what an editor needs: `SELECT <schema>.grant_editor('<role>')`."
        default:
            nil
        }
    }

    /// The last line of an undo's refusal over later changes.
    static let undoConflicts = "Undo those first, or give --force to undo only what is still in effect."

    /// The command or option that helps after `error`; nil when its message says all there is.
    static func hint(for error: any Error) -> String? {
        switch error {
        case let failure as SubmitFailure:
            return hint(for: failure.error)
        case let error as LibraryError:
            switch error {
            case .podcastNotFound: return "`episodic podcast list` shows them."
            case .episodeNotFound(_, _, let podcast?): return "`episodic episode list \(ShellWord.quoted(podcast.name))` shows them."
            case .episodeNotFound: return "`episodic episode list <podcast>` shows them."
            case .nothingAnswers: return "`episodic podcast list` and `episodic episode list --all` show them."
            case .commandNotFound: return "`episodic log` lists commands with their ids."
            case .noSubtitles: return "Run `episodic transcript convert` first."
            case .subtitlesFromEarlierVersion(let episode): return "`episodic transcript convert \(episode)` makes them again."
            case .libraryHasEvents: return "`episodic push <url>` moves it to a server."
            case .sharedLossNotAccepted: return "`episodic clone <url> <folder>` clones it."
            default: return nil
            }
        case EventLogError.damagedAcknowledgedCommit, EventLogError.lostCommits, EventLogError.alteredCommit:
            return "`episodic restore` puts a backup back; `episodic log repair --accept-loss` goes on without what was lost, "
                + "recording the loss in the log."
        case DomainError.fontInUse(let name, _):
            return "`episodic font remove \(ShellWord.quoted(name)) --force` removes it all the same."
        case EventLogError.damagedLog:
            return "`episodic log verify` says where; `episodic log repair` says how to mend it."
        case EventLogError.brokenChain:
            return "`episodic log verify` says where; `episodic restore` puts a backup back."
        case ProjectionError.unreadableEvent, is UnreadableEvent:
            return "Run `episodic log verify`."
        case let error as SharedLogError:
            return hint(for: error)
        case BackupError.archiveExists:
            return "`episodic backup --force` replaces it."
        case let error as ScriptError:
            switch error.reason {
            case .missing, .unknownCommand: return "`episodic submit --list-commands` shows every command with its fields."
            default: return nil
            }
        case UndoError.redoPastNewWork(let undo):
            return "To bring back what it undid all the same: `episodic redo \(undo.description.prefix(8)) --force`."
        case UndoError.notAnUndo(let id):
            return "To take it back: `episodic undo \(id.description.prefix(8))`."
        default:
            return nil
        }
    }
}
