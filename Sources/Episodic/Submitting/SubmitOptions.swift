/// How a batch of submissions is committed (``Library/submit(_:actor:options:)``).
public struct SubmitOptions: Sendable {
    /// All the submissions in one commit, or none of them.
    public var atomic: Bool
    /// Go on after a refusal rather than stop at it (not with `atomic`).
    public var keepGoing: Bool

    public init(atomic: Bool = false, keepGoing: Bool = false) {
        self.atomic = atomic
        self.keepGoing = keepGoing
    }
}

extension Library {
    /// ``submit(_:actor:atomic:keepGoing:timingCreations:clock:progress:groupLimit:acknowledged:)`` with its
    /// choices as a value.
    public func submit(_ submissions: [Submission], actor: String, options: SubmitOptions) throws -> SubmitReport {
        try submit(submissions, actor: actor, atomic: options.atomic, keepGoing: options.keepGoing)
    }
}
