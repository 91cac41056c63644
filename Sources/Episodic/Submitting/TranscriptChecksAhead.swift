import EventLog
import Foundation
import PodcastDomain

/// The transcripts a batch imports, checked on a thread of their own (``TranscriptCheck``), in the
/// batch's order, while the commands before them are decided.
///
/// The check reads the whole text (a tenth of a script's time when a fifth of its commands are
/// imports) and needs nothing but the text, so it need not wait for its command's turn under the
/// writer lock. The writer takes each check when it comes to the command: one being made then is
/// waited for; one not begun is left to the decider, and so are the checks of every command the
/// writer has passed.
final class TranscriptChecksAhead: @unchecked Sendable {
    private let condition = NSCondition()
    /// Checks made and not yet taken, by the index of their submission.
    private var made: [Int: TranscriptCheck] = [:]
    /// The index whose check is being made.
    private var making: Int?
    /// The highest index the writer has come to: checks up to it are no longer wanted.
    private var passed = -1

    /// Starts checking the transcripts `submissions` import, through `start` (a new thread); nil when
    /// there is nothing to check ahead of (no import, or a single command).
    init?(_ submissions: [Submission], start: (@escaping @Sendable () -> Void) -> Void = DetachedThread.start) {
        guard submissions.count > 1 else { return nil }
        let imports = submissions.indices.compactMap { index -> (index: Int, bytes: [UInt8], ref: BlobRef, strict: Bool)? in
            guard case .episode(_, .importTranscript(let bytes, let ref, let strict)) = submissions[index].action else { return nil }
            return (index, bytes, ref, strict)
        }
        guard !imports.isEmpty else { return nil }
        start { [self] in
            for item in imports {
                let begun = condition.withLock {
                    guard item.index > passed else { return false }
                    making = item.index
                    return true
                }
                guard begun else { continue }
                let check = TranscriptCheck(item.bytes, item.ref, strict: item.strict)
                condition.withLock {
                    made[item.index] = check
                    making = nil
                    condition.broadcast()
                }
            }
        }
    }

    /// The check of the submission at `index`, if it is made, or once it is if it is being made; nil
    /// if it is not begun, and then never made. Checks of submissions up to `index` are not begun.
    func take(_ index: Int) -> TranscriptCheck? {
        condition.withLock {
            passed = max(passed, index)
            while making == index { condition.wait() }
            return made.removeValue(forKey: index)
        }
    }

    /// Begins no more checks: the batch is over.
    func stop() {
        condition.withLock { passed = Int.max }
    }
}
