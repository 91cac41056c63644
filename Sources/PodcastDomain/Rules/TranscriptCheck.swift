import CoreValues

/// A transcript checked against the rules (``Rules``' transcript check: UTF-8, not blank, within the
/// size limit, readable as the conversion will read it), made before its command is decided.
///
/// The check reads the whole text and needs nothing else, so it is made before the writer lock is
/// taken. It can only be made by running the check, and the decider takes it only for the same
/// content and the same strictness as the command's.
public struct TranscriptCheck: Hashable, Sendable {
    public let ref: BlobRef
    public let strict: Bool
    /// What the check read past, or why it refused the transcript.
    public let outcome: Result<[TranscriptWarning], DomainError>

    public init(_ bytes: [UInt8], _ ref: BlobRef, strict: Bool) {
        self.ref = ref
        self.strict = strict
        outcome = Result { () throws(DomainError) in try Rules.transcript(bytes, ref, strict: strict) }
    }

    /// The outcome, if this is the check of `ref` made with `strict`.
    func outcome(of ref: BlobRef, strict: Bool) -> Result<[TranscriptWarning], DomainError>? {
        self.ref == ref && self.strict == strict ? outcome : nil
    }
}
