import CoreValues
import EventLog
import Foundation
import PodcastDomain

/// The transcripts episodes import: distinct Zencastr transcripts, each stored in the blob store with
/// the SRT the real conversion makes from it. Episodes reuse them (a library of 10,000 episodes with
/// 10,000 distinct 75 KB transcripts would spend the run writing blobs, and the read models never
/// open a transcript anyway).
///
/// Made on every core: each transcript comes from its own seed, so the pool is the same whatever the
/// order the threads finish in.
struct TranscriptPool {
    struct Entry {
        let bytes: [UInt8]
        let ref: BlobRef
        /// The SRT made from this transcript, as `recordSubtitles` records it.
        let subtitles: SubtitlesRef
    }

    let entries: [Entry]
    private let indexBySHA: [String: Int]

    /// `count` transcripts of `bytes` bytes each (drawn per transcript), stored in `blobs`.
    static func make(count: Int, bytes: ClosedRange<Int>, seed: UInt64, blobs: BlobStore) throws -> TranscriptPool {
        let results = Results(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { i in
            let outcome = Result { () throws -> Entry in
                var random = SplitMix64(seed: seed &+ UInt64(i) &* 0x9E37)
                let size = Int.random(in: bytes, using: &random)
                let text = ZencastrTranscript.make(bytes: size, seed: random.next())
                let ref = try blobs.put(text)
                let converted = try SubtitleConversion.convert(String(decoding: text, as: UTF8.self))
                let srt = try blobs.put(Array(converted.srt.utf8))
                return Entry(bytes: text, ref: ref, subtitles: SubtitlesRef(blob: srt, cueCount: converted.cues.count, transcript: ref))
            }
            results.set(i, outcome)
        }
        let entries = try results.all()
        let index = Dictionary(entries.enumerated().map { ($0.element.ref.sha256, $0.offset) }, uniquingKeysWith: { a, _ in a })
        return TranscriptPool(entries: entries, indexBySHA: index)
    }

    /// The pool entry a transcript reference points at.
    func entry(for ref: BlobRef) -> Entry? {
        indexBySHA[ref.sha256].map { entries[$0] }
    }

    /// Bytes of transcript text in the pool.
    var totalBytes: Int { entries.reduce(0) { $0 + $1.bytes.count } }

    /// The outcomes of the worker threads, one slot each.
    private final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Result<Entry, any Error>?]

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func set(_ i: Int, _ outcome: Result<Entry, any Error>) {
            lock.lock()
            slots[i] = outcome
            lock.unlock()
        }

        func all() throws -> [Entry] {
            try slots.map { try $0!.get() }
        }
    }
}
