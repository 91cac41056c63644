import CoreValues
import Foundation
import EventCodec
import EventLog
import PodcastDomain
import PostgresLog
import Projections

/// What ``Library/acceptLoss(actor:)`` found lost and recorded.
public struct AcceptedLoss: Sendable, Equatable {
    /// The log's record of it.
    public var loss: LossAccepted
    /// Where the acceptance went in the log.
    public var position: LogPosition
    /// Bad bytes set aside from the end of the log into `quarantine/`.
    public var setAside: [RecoveryReport]
    /// Where the read models that had seen what was lost were kept (under `read/`); nil when they had not.
    public var readModelsKept: String?
}

extension Library {
    /// Repairs the end of the log as a writer does, without appending anything: a torn tail that
    /// nothing acknowledged is set aside into `quarantine/`. Damage, and commits something shows were
    /// acknowledged, are refused as by every writer. Returns what was set aside.
    public func repair() throws -> [RecoveryReport] {
        _ = try write { _ in try readModel().catchUp(with: log) }
        return recovered
    }

    /// Goes on without acknowledged commits the log lost, recording the loss in the log: for a user who
    /// has no backup to restore, or who put an older copy of the log in place on purpose. Every write
    /// is refused until then.
    ///
    /// Bad bytes at the very end are set aside into `quarantine/`, even when something shows they were
    /// acknowledged; the read models that had seen what was lost are kept under `read/` and rebuilt from
    /// the log; then a `LossAccepted` event, by `actor`, says what was lost and what showed it, and the
    /// library's head record names the log as it now is. A chain broken in the middle of the log is not
    /// a loss that can be accepted: restore a backup. Returns nil, having changed nothing, when nothing
    /// acknowledged is missing.
    public func acceptLoss(actor: String) throws -> AcceptedLoss? {
        guard !(store is SharedStore) else { throw LibraryError.sharedLossNotAccepted }
        var readModelsKept: String?
        var accepted: LossAccepted?
        // A read model that stands on another event than the log holds there shows a changed commit.
        // Asked before the writer lock is taken: opening the read models may take it too.
        var readModelSaw: (position: LogPosition, witness: String)?
        if case .alteredCommit(let position, let witness, _, _)? = (try? readModel())?.evidenceOfLoss(log: log) {
            readModelSaw = (position, witness)
        }
        let result = try log.acceptLoss(acknowledgedThrough: acknowledgedWitness, alteredAt: { readModelSaw }) { found in
            let loss = LossAccepted(
                lostFrom: found.lost?.lowerBound.rawValue, lostThrough: found.lost?.upperBound.rawValue, altered: found.altered?.rawValue,
                witness: found.witness, recordedHash: found.recordedHash, setAside: found.setAside.map(\.quarantined))
            let events = try LogDecider.decide(.acceptLoss(loss), LogDecider.initial)
            // The read models that saw what is given up are kept as they are, never caught up over.
            readModelsKept = ReadModel.setAsideLive(library: path, as: "superseded")
            accepted = loss
            return Commit(
                events: events.map(ProposedEvent.init(domain:)), commandID: CommandID(UUID()), actor: actor, timestamp: .now)
        }
        guard let result, let accepted else { return nil }
        recovered += result.loss.setAside
        openedReadModel = nil
        readModelsOpening = nil
        _ = try currentReadModel()
        return AcceptedLoss(
            loss: accepted, position: result.appended.positions.lowerBound, setAside: result.loss.setAside, readModelsKept: readModelsKept)
    }
}

extension Library {
    /// What a loss accepted gave up, in words: `positions 9 to 10 (shown by the read models)`.
    public static func lossText(_ loss: LossAccepted) -> String { FieldText.loss(loss) }
}
