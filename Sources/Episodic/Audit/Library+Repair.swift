import EventLog
import Projections

extension Library {
    /// Repairs the end of the log as a writer does, without appending anything: a torn tail that
    /// nothing acknowledged is set aside into `quarantine/`. With `discardingDamagedTail`, bad bytes at
    /// the very end are set aside even when something shows they were an acknowledged commit, a loss the
    /// user chooses when there is no backup to restore; the read models, which had seen that commit, are
    /// then rebuilt from the log. Damage anywhere else is still an error. Returns what was set aside.
    public func repair(discardingDamagedTail: Bool = false) throws -> [RecoveryReport] {
        guard discardingDamagedTail else {
            // A read model left ahead of the log as evidence is settled here, as by any writer.
            _ = try write { _ in try readModel().catchUp(with: log) }
            return recovered
        }
        let discarded = try log.discardDamagedTail()
        recovered += discarded
        if !discarded.isEmpty {
            try log.refresh()
            try readModel().rebuild(log: log)
        }
        return discarded
    }
}
