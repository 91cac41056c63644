import CoreValues
import EventLog
import Foundation
import PodcastDomain
import ThumbnailRenderer

/// The slow work a batch's inputs need, done before the writer lock is taken, never under it: each
/// transcript import's check (it reads the whole text), each conversion to subtitles and each thumbnail
/// render a batch asks for. Other writers wait while the lock is held; a transcript of 10 MB takes
/// seconds to convert.
///
/// Every result is keyed by the content it was made from (references are hashes), so one made for the
/// input a command finds under the lock is its own, however it was foreseen. Imports are checked from
/// the bytes they carry. A conversion or a render is made for the input it is foreseen to have: the
/// transcript an earlier import of the batch gives the episode, else the one it has now; the thumbnail's
/// inputs as they are now. Under the lock, a command takes the result made for the input it finds;
/// where none was (the batch or another writer changed the input), it throws ``InputWorkNeeded`` before
/// deciding, and the batch makes that work once the lock is let go (``make(_:library:)``), then decides
/// the command again.
final class PreparedInputs: @unchecked Sendable {
    /// A conversion's key: the transcript and whether defects are refused.
    struct ConversionKey: Hashable, Sendable {
        var transcript: BlobRef
        var strict: Bool
    }

    /// A render's key: the inputs, and the font file the text is drawn in (nil: the default font).
    struct RenderKey: Hashable, Sendable {
        var inputs: ThumbnailInputs
        var font: BlobRef?
    }

    /// Subtitles made from a transcript: their reference, their SRT file, and what was read past.
    struct Conversion: Sendable {
        var subtitles: SubtitlesRef
        var srt: [UInt8]
        var warnings: [TranscriptWarning]
    }

    private let lock = NSLock()
    private var checks: [ConversionKey: TranscriptCheck] = [:]
    private var conversions: [ConversionKey: Result<Conversion, TranscriptError>] = [:]
    private var renders: [RenderKey: Result<(RenderedThumbnail, [UInt8]), any Error>] = [:]
    /// The batch's own content by reference, for work on inputs not yet in the blob store (an atomic
    /// batch's background, say): made on first need, since it hashes every blob of the batch.
    private var batchBlobs: [BlobRef: [UInt8]]?
    private let submissions: [Submission]

    /// Makes the work `submissions` are foreseen to need, on every core, reading `library` without
    /// its lock.
    init(_ submissions: [Submission], library: Library) {
        self.submissions = submissions
        var foreseen: [Work] = []
        var workspace: Workspace??
        /// The library as it stands, read without the lock (the read models as they are: a stale one
        /// only makes the foresight miss); nil when it cannot be read.
        func unlocked() -> Workspace? {
            if workspace == nil { workspace = .some(try? Workspace(log: library.store, readModel: library.readModel())) }
            return workspace!
        }
        for (index, submission) in submissions.enumerated() {
            switch submission.action {
            case .episode(_, .importTranscript(let bytes, let ref, let strict)):
                foreseen.append(.check(bytes, ConversionKey(transcript: ref, strict: strict)))
            case .convertTranscript(let episode, let strict):
                guard let (ref, bytes) = Self.foreseenTranscript(of: episode, before: index, in: submissions, workspace: unlocked)
                else { continue }
                foreseen.append(.conversion(ConversionKey(transcript: ref, strict: strict), bytes: bytes))
            case .renderThumbnail(let episode):
                guard let workspace = unlocked(), let id = try? workspace.resolve(episode),
                      let inputs = try? workspace.episode(id).live?.thumbnailInputs,
                      let key = try? Self.renderKey(inputs, fonts: workspace.fonts())
                else { continue }
                foreseen.append(.render(key))
            default:
                continue
            }
        }
        makeAhead(foreseen, library: library)
    }

    /// Work on one input, as foreseen before the lock or found missing under it.
    enum Work: Sendable {
        /// A transcript import's check, of the bytes it carries.
        case check([UInt8], ConversionKey)
        /// A conversion, of the bytes the batch brings when it brings them.
        case conversion(ConversionKey, bytes: [UInt8]?)
        case render(RenderKey)

        /// What the work makes, told apart without hashing the bytes it reads.
        fileprivate var made: AnyHashable {
            switch self {
            case .check(_, let key): ["check", key] as [AnyHashable]
            case .conversion(let key, _): ["conversion", key] as [AnyHashable]
            case .render(let key): key
            }
        }
    }

    /// How many pieces of work have their inputs in memory at once: a few for each core, so that a
    /// script converting thousands of stored transcripts does not read them all first.
    private static let inFlight = 2 * max(ProcessInfo.processInfo.activeProcessorCount, 1)

    /// Makes `work` a few at a time, reading each one's inputs on this thread (the blob store is read by
    /// one thread) and making it on any core. Work whose inputs cannot be read now is left: a command
    /// that needs it finds it missing, and it is made again after the lock, saying what went wrong.
    private func makeAhead(_ work: [Work], library: Library) {
        var seen: Set<AnyHashable> = []
        let unique = work.filter { seen.insert($0.made).inserted }
        for start in stride(from: 0, to: unique.count, by: Self.inFlight) {
            let jobs = unique[start..<min(start + Self.inFlight, unique.count)].compactMap { job($0, library: library) }
            DispatchQueue.concurrentPerform(iterations: jobs.count) { jobs[$0]() }
        }
    }

    /// `work` with its inputs read from the library, ready to be made on any thread; nil when they
    /// cannot be read.
    private func job(_ work: Work, library: Library) -> (@Sendable () -> Void)? {
        switch work {
        case let .check(bytes, key):
            return { [self] in
                let check = TranscriptCheck(bytes, key.transcript, strict: key.strict)
                lock.withLock { checks[key] = check }
            }
        case let .conversion(key, given):
            guard let bytes = given ?? (try? library.store.blob(key.transcript)) else { return nil }
            return { [self] in
                let conversion = Self.convert(bytes, key.transcript, strict: key.strict)
                lock.withLock { conversions[key] = conversion }
            }
        case .render(let key):
            var blobs: [BlobRef: [UInt8]] = [:]
            for ref in [key.inputs.background.blob, key.inputs.overlay?.blob, key.font].compactMap({ $0 }) {
                guard let bytes = try? library.store.blob(ref) else { return nil }
                blobs[ref] = bytes
            }
            return { [self, blobs] in
                let render = Result { try Self.render(key, blobs: blobs) }
                lock.withLock { renders[key] = render }
            }
        }
    }

    /// The transcript a conversion of `episode` at `index` will find, and its bytes when the batch
    /// brings them: the last import of the batch into the same reference before it, else the
    /// episode's own now. Nil when an earlier command clears it, or it cannot be told.
    private static func foreseenTranscript(
        of episode: EpisodeReference, before index: Int, in submissions: [Submission], workspace: () -> Workspace?
    ) -> (BlobRef, [UInt8]?)? {
        for earlier in submissions[..<index].reversed() {
            guard case .episode(let reference, let command) = earlier.action, reference == episode else { continue }
            if case .importTranscript(let bytes, let ref, _) = command { return (ref, bytes) }
            if case .clearTranscript = command { return nil }
        }
        guard let workspace = workspace(), let id = try? workspace.resolve(episode),
              let ref = try? workspace.episode(id).live?.transcript
        else { return nil }
        return (ref, nil)
    }

    // MARK: Under the lock

    /// The check of the transcript `bytes`, whose reference is `ref`; throws ``InputWorkNeeded`` when
    /// it was not made.
    func check(_ bytes: [UInt8], _ ref: BlobRef, strict: Bool) throws -> TranscriptCheck {
        let key = ConversionKey(transcript: ref, strict: strict)
        guard let made = lock.withLock({ checks[key] }) else { throw InputWorkNeeded(work: .check(bytes, key)) }
        return made
    }

    /// The conversion of the transcript `ref`; throws ``InputWorkNeeded`` when it was not made.
    func conversion(_ ref: BlobRef, strict: Bool) throws -> Result<Conversion, TranscriptError> {
        let key = ConversionKey(transcript: ref, strict: strict)
        guard let made = lock.withLock({ conversions[key] }) else { throw InputWorkNeeded(work: .conversion(key, bytes: nil)) }
        return made
    }

    /// The thumbnail drawn from `inputs` in the font `fonts` give it; throws ``InputWorkNeeded`` when it
    /// was not drawn, and the domain's refusal when the font named is not imported.
    func render(_ inputs: ThumbnailInputs, fonts: FontLibraryState) throws -> (RenderedThumbnail, [UInt8]) {
        let key = try Self.renderKey(inputs, fonts: fonts)
        guard let made = lock.withLock({ renders[key] }) else { throw InputWorkNeeded(work: .render(key)) }
        return try made.get()
    }

    // MARK: After the lock

    /// Makes `work`, which a command found missing under the lock, reading `library` without the lock;
    /// throws what reading its inputs met.
    func make(_ work: Work, library: Library) throws {
        switch work {
        case .check(let bytes, let key):
            let check = TranscriptCheck(bytes, key.transcript, strict: key.strict)
            lock.withLock { checks[key] = check }
        case .conversion(let key, let given):
            let conversion = Self.convert(try given ?? blob(key.transcript, library: library), key.transcript, strict: key.strict)
            lock.withLock { conversions[key] = conversion }
        case .render(let key):
            var blobs: [BlobRef: [UInt8]] = [:]
            for ref in [key.inputs.background.blob, key.inputs.overlay?.blob, key.font].compactMap({ $0 }) {
                blobs[ref] = try blob(ref, library: library)
            }
            let render = Result { try Self.render(key, blobs: blobs) }
            lock.withLock { renders[key] = render }
        }
    }

    /// Content from the blob store, else from the batch's own.
    private func blob(_ ref: BlobRef, library: Library) throws -> [UInt8] {
        do {
            return try library.store.blob(ref)
        } catch {
            let own = lock.withLock {
                if batchBlobs == nil {
                    batchBlobs = Dictionary(submissions.flatMap(\.blobs).map { (BlobStore.reference(for: $0), $0) }) { first, _ in first }
                }
                return batchBlobs?[ref]
            }
            if let own { return own }
            if let error = error as? EventLogError { throw LibraryError.blobUnreadable(error) }
            throw error
        }
    }

    // MARK: The work

    private static func convert(_ bytes: [UInt8], _ ref: BlobRef, strict: Bool) -> Result<Conversion, TranscriptError> {
        Result { () throws(TranscriptError) in
            let subtitles = try SubtitleConversion.convert(String(decoding: bytes, as: UTF8.self), strict: strict)
            let srt = Array(subtitles.srt.utf8)
            return Conversion(
                subtitles: SubtitlesRef(blob: BlobStore.reference(for: srt), cueCount: subtitles.cues.count, transcript: ref),
                srt: srt, warnings: subtitles.warnings)
        }
    }

    /// The key of a render of `inputs`: the font file its settings name (the domain's refusal when
    /// none is imported under that name).
    private static func renderKey(_ inputs: ThumbnailInputs, fonts: FontLibraryState) throws -> RenderKey {
        guard let name = inputs.settings.fontName else { return RenderKey(inputs: inputs, font: nil) }
        guard let imported = fonts.font(named: name) else { throw DomainError.fontNotFound(name) }
        return RenderKey(inputs: inputs, font: imported.font)
    }

    /// The stored thumbnail `key` describes, from its images and font file in `blobs`.
    private static func render(_ key: RenderKey, blobs: [BlobRef: [UInt8]]) throws -> (RenderedThumbnail, [UInt8]) {
        func blob(_ ref: BlobRef) throws -> [UInt8] {
            guard let bytes = blobs[ref] else { throw LibraryError.blobUnreadable(.blobMissing(ref)) }
            return bytes
        }
        let font = try key.font.map { try ThumbnailFont(bytes: try blob($0)) } ?? ThumbnailFont.defaultBold()
        return try ThumbnailDrawing.stored(key.inputs, font: font, blob: blob)
    }
}

/// A command found, under the writer lock, that work on its input was not made ahead: the batch stops
/// before it, makes the work once the lock is let go, and decides it again.
struct InputWorkNeeded: Error {
    var work: PreparedInputs.Work
}
