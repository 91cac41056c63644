import CoreValues
import EventCodec
import Foundation
import FuzzSupport
import PodcastDomain

// Input: "<event type> <schema version>", then a payload (the JSON an event's `data` holds in the log, or
// a kept fold's state). Whatever the bytes, decoding them as that event returns an event or throws; an
// event decoded is written again, and that payload decodes to the same event. The same bytes read as a
// kept podcast's or episode's state give one or nothing. A trap anywhere is reported as a crash.

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let parts = Parts.split(UnsafeRawBufferPointer(start: data, count: size), max: 2)
    guard parts.count == 2 else { return 0 }
    let header = String(decoding: parts[0], as: UTF8.self).split(separator: " ")
    let type = header.first.map(String.init) ?? ""
    let version = header.count > 1 ? Int(header[1]) ?? 1 : 1
    check(type: type, version: version, payload: parts[1])
    return 0
}

func check(type: String, version: Int, payload: [UInt8]) {
    if let event = try? EventCoding.decode(type: type, schemaVersion: version, payload: payload) {
        let written = EventCoding.encode(event)
        guard let again = try? EventCoding.decode(type: event.type, schemaVersion: event.schemaVersion, payload: written) else {
            broken("\(type) \(version) decoded, and its payload written again does not decode: \(String(decoding: written, as: UTF8.self))")
        }
        if again != event { broken("\(type) \(version) decoded, written and decoded again is another event") }
    }
    _ = KeptStates.podcast(PayloadSeeds.podcast, from: payload)
    _ = KeptStates.episode(PayloadSeeds.episode, from: payload)
}

/// Seeds from lines of JSON on standard input: the samples `domain-event-samples` prints
/// (`{"type","schemaVersion","payload"}`) and envelopes of a log (`{"type","schema","data"}`).
enum PayloadSeeds {
    static let podcast = PodcastID(UUID(uuid: (0xC0, 0xFF, 0xEE, 0, 0xDE, 0xAD, 0x4B, 0xEE, 0x8F, 0, 0, 0, 0, 0, 0, 2)))
    static let episode = EpisodeID(UUID(uuid: (0xC0, 0xFF, 0xEE, 0, 0xDE, 0xAD, 0x4B, 0xEE, 0x8F, 0, 0, 0, 0, 0, 1, 1)))

    static func fromStandardInput() -> [(name: String, parts: [[UInt8]])] {
        var seeds: [(String, [[UInt8]])] = []
        while let line = readLine() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let type = object["type"] as? String,
                let version = (object["schemaVersion"] ?? object["schema"]) as? Int,
                let payload = object["payload"] ?? object["data"],
                let bytes = try? JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys, .withoutEscapingSlashes])
            else { continue }
            seeds.append(("\(type)-\(version)-\(seeds.count)", [Array("\(type) \(version)".utf8), Array(bytes)]))
        }
        return seeds.map { (name: $0.0, parts: $0.1) }
    }
}
