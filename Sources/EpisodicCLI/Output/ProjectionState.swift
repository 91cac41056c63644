import Episodic

extension ProjectionStatus {
    /// Where a read model stands, in words: `current`, `1 event behind`, `ahead of the log`, or `needs a
    /// rebuild` when it was made with another schema than this build's.
    var stateText: String {
        if storedSchemaVersion != schemaVersion { return "needs a rebuild" }
        if checkpoint > head { return "ahead of the log" }
        return isCurrent ? "current" : Amount.events(eventsBehind) + " behind"
    }
}
