import ArgumentParser
import CoreValues
import EventCodec
import Foundation
import PodcastDomain

/// `episodic-bench codec`: the event codec against Foundation's `JSONEncoder` and `JSONDecoder` on the
/// same payloads, in the same run, alternating round by round: the figures that justify keeping a
/// JSON codec of our own. Before timing, each side's output is checked against the other's: the same
/// bytes encoded, the same events decoded; a difference stops the run, since a faster codec that
/// writes or reads something else proves nothing.
struct CodecBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codec",
        abstract: "Measures the event codec against Foundation's JSONEncoder and JSONDecoder on the same payloads.")

    @Option(help: "Rounds per codec; the median is reported.")
    var rounds = 15

    @Option(help: "Episodes whose events make up the payloads (about 6 events each).")
    var episodes = 2_000

    @Flag(help: "Also print the figures as one JSON object, alone on stdout (the readable lines go to stderr).")
    var json = false

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1.") }
        guard episodes >= 1 else { throw ValidationError("--episodes must be at least 1.") }
    }

    func run() throws {
        let report = Report(jsonOutput: json)
        let events = try Self.events(episodes: episodes)
        let payloads = events.map(EventCoding.encode)
        let bytes = payloads.reduce(0) { $0 + $1.count }
        report.line("payloads", "\(events.count.grouped()) events made by the deciders, \(bytes.grouped()) bytes of JSON")

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let decoder = JSONDecoder()
        try Self.checkSameOutput(events, payloads, encoder: encoder, decoder: decoder)
        report.line("same output", "both encoders wrote the same bytes for all \(events.count.grouped()) payloads, and both decoders read back the events encoded")
        var ours: [Double] = [], foundation: [Double] = []
        for _ in 0..<rounds {
            ours.append(timed { for event in events { _ = EventCoding.encode(event) } })
            foundation.append(try timed { for event in events { _ = try encoder.encode(event.payload) } })
        }
        compare("encode", ours, foundation, count: events.count, report: report)

        let datas = payloads.map { Data($0) }
        ours = []
        foundation = []
        for _ in 0..<rounds {
            ours.append(try timed {
                for (event, payload) in zip(events, payloads) {
                    _ = try EventCoding.decode(type: event.type, schemaVersion: event.schemaVersion, payload: payload)
                }
            })
            foundation.append(try timed {
                for (event, data) in zip(events, datas) { _ = try Self.decode(like: event.payload, data, with: decoder) }
            })
        }
        compare("decode", ours, foundation, count: events.count, report: report)
        report.finish()
    }

    /// Stops the run unless Foundation writes each payload byte for byte as the event codec does, and
    /// each side decodes every payload back into the event it was made from.
    private static func checkSameOutput(
        _ events: [DomainEvent], _ payloads: [[UInt8]], encoder: JSONEncoder, decoder: JSONDecoder
    ) throws {
        for (event, payload) in zip(events, payloads) {
            let theirs = try encoder.encode(event.payload)
            guard Array(theirs) == payload else {
                throw BenchFailure(
                    "codec: the encoders differ on a \(event.type): event codec \(String(decoding: payload, as: UTF8.self)), "
                        + "JSONEncoder \(String(decoding: theirs, as: UTF8.self))")
            }
            let ours = try EventCoding.decode(type: event.type, schemaVersion: event.schemaVersion, payload: payload)
            guard ours == event, try isDecoded(like: event.payload, Data(payload), with: decoder) else {
                throw BenchFailure("codec: a decoder did not read back the \(event.type) encoded as \(String(decoding: payload, as: UTF8.self))")
            }
        }
    }

    /// Whether Foundation decodes `data` into `sample` itself.
    private static func isDecoded<Payload: EventPayload>(like sample: Payload, _ data: Data, with decoder: JSONDecoder) throws -> Bool {
        try decode(like: sample, data, with: decoder) == sample
    }

    /// Decodes `data` with Foundation into the type of `sample`.
    private static func decode<Payload: EventPayload>(like sample: Payload, _ data: Data, with decoder: JSONDecoder) throws -> Payload {
        try decoder.decode(Payload.self, from: data)
    }

    private func compare(_ name: String, _ ours: [Double], _ foundation: [Double], count: Int, report: Report) {
        let (mine, theirs) = (Double(count) / ours.median, Double(count) / foundation.median)
        report.line(
            name,
            "event codec \(mine.grouped()) events/s, Foundation \(theirs.grouped()) events/s: "
                + "\((mine / theirs).grouped(decimals: 2))x (medians of \(rounds) alternating rounds)")
        report.value(name + "EventsPerSecond", mine)
        report.value(name + "FoundationEventsPerSecond", theirs)
        report.value(name + "Ratio", mine / theirs)
    }

    /// A podcast and `episodes` episodes, each created, retitled, described, given a transcript,
    /// thumbnail settings and text: payloads of the shapes and sizes a library holds.
    static func events(episodes: Int) throws -> [DomainEvent] {
        let start = Timestamp(rawValue: 1_795_000_000_000)!
        let podcastID = PodcastID(UUID(uuidString: "00000000-0000-4000-8000-000000000001")!)
        var events = try PodcastDecider.decide(
            .create(id: podcastID, name: "Merge Conflict", description: "A weekly show about shipping software", at: start), .initial)
        let podcast = PodcastDecider.fold(events)
        var random = SplitMix64(seed: 0xC0DEC)
        for n in 1...episodes {
            let id = EpisodeID(UUID())
            let facts = EpisodeFacts(podcast: podcast)
            var state = EpisodeDecider.initial
            let transcript = Array("00:00:01\nHost\nEpisode \(n), take \(random.next() % 1_000)\n".utf8)
            let commands: [EpisodeCommand] = [
                .create(id: id, title: "Episode \(n): \"quoted\" and ünïcode 🎙", number: n, at: start),
                .retitle("Episode \(n), retitled"),
                .describe("Line one of episode \(n).\nLine two, with a backslash \\."),
                .importTranscript(bytes: transcript, ref: BlobRef(sha256: String(repeating: "ab", count: 32), byteCount: transcript.count)!),
                .changeThumbnailSettings(ThumbnailSettings(fontSize: Double(40 + n % 20))),
                .changeThumbnailText(.custom("Episode \(n)")),
            ]
            for command in commands {
                let decided = try EpisodeDecider.decide(command, state, facts)
                state = decided.reduce(state, EpisodeDecider.evolve)
                events += decided
            }
        }
        return events
    }
}
