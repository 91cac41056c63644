import EventCodec
import EventLog
import PodcastDomain

/// How much transcript text a rebuild of the search projector reads and indexes, found by the
/// projector's own rule without running it: at the end of each batch, every live episode the batch
/// touched whose transcript is not the one already indexed has it read and indexed. A transcript
/// replaced twice within a batch is read once; one replaced in each of two batches, twice.
///
/// Only the events that change an episode's transcript or life are decoded; the rest only touch.
struct SearchTextTally {
    /// Bytes and number of transcripts read during a rebuild.
    var indexedBytes = 0
    var indexedTranscripts = 0
    /// Bytes of the transcripts of live episodes at the end: what the finished index holds.
    var finalBytes = 0

    private static let episodePrefix = Array("episode-".utf8)
    private static let decoded: Set<String> = [
        "EpisodeCreated", "EpisodeDeleted", "EpisodeRestored", "TranscriptImported", "TranscriptReplaced", "TranscriptCleared",
    ]

    static func measure(library: String, batchSize: Int) throws -> SearchTextTally {
        let log = try EventLog(at: library)
        var tally = SearchTextTally()
        var transcripts: [String: (live: Bool, ref: (sha: String, bytes: Int)?)] = [:]
        var indexed: [String: String?] = [:]
        var touched = Set<String>()
        func endBatch() {
            for stream in touched {
                guard let episode = transcripts[stream], episode.live else {
                    indexed[stream] = nil
                    continue
                }
                let current = episode.ref?.sha
                if let ref = episode.ref, indexed[stream] != .some(current) {
                    tally.indexedBytes += ref.bytes
                    tally.indexedTranscripts += 1
                }
                indexed[stream] = .some(current)
            }
            touched.removeAll(keepingCapacity: true)
        }
        try log.read { envelope in
            if envelope.streamBytes.starts(with: episodePrefix) {
                let stream = String(decoding: envelope.streamBytes, as: UTF8.self)
                touched.insert(stream)
                let type = envelope.type
                if decoded.contains(type) {
                    let event = try EventCoding.decode(type: type, schemaVersion: envelope.schemaVersion, payload: envelope.payload)
                    switch event {
                    case .episodeCreated: transcripts[stream] = (true, nil)
                    case .episodeDeleted: transcripts[stream]?.live = false
                    case .episodeRestored(let e): transcripts[stream] = (true, e.episode.transcript.map { ($0.sha256, $0.byteCount) })
                    case .transcriptImported(let e): transcripts[stream]?.ref = (e.transcript.sha256, e.transcript.byteCount)
                    case .transcriptReplaced(let e): transcripts[stream]?.ref = (e.transcript.sha256, e.transcript.byteCount)
                    case .transcriptCleared: transcripts[stream]?.ref = nil
                    default: break
                    }
                }
            }
            if envelope.position.rawValue % UInt64(batchSize) == 0 { endBatch() }
        }
        endBatch()
        tally.finalBytes = transcripts.values.reduce(0) { $0 + ($1.live ? $1.ref?.bytes ?? 0 : 0) }
        return tally
    }
}
