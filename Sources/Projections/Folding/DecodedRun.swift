import CoreValues
import Dispatch
import EventLog
import Foundation
import PodcastDomain

/// A run of events read from the log and decoded on every core.
///
/// Decoding payloads is the costliest step of a replay and it is pure, so the run first copies what
/// decoding needs out of the log's buffers (which are valid only during the read), then decodes in
/// parallel, and hands the events back in log order for the fold, which must stay sequential.
struct DecodedRun {
    private struct Stored: Sendable {
        let position: UInt64
        let type: String
        let schemaVersion: Int
        let payload: [UInt8]
        let time: Timestamp
    }

    private var stored: [Stored] = []

    /// Events decoded at once: enough to keep every core busy, few enough to bound memory.
    static let maximumLength = 16_384

    /// Reads the events from `start` through `end`.
    init(log: EventLog, from start: LogPosition, through end: LogPosition) throws {
        stored.reserveCapacity(Int(end.rawValue - start.rawValue + 1))
        try log.read(from: start, through: end) { envelope in
            stored.append(Stored(
                position: envelope.position.rawValue, type: envelope.type, schemaVersion: envelope.schemaVersion,
                payload: Array(envelope.payload), time: envelope.timestamp))
        }
    }

    /// Calls `body` with every event of the run, in log order.
    func forEach(_ body: (DomainEvent, Timestamp) throws -> Void) throws {
        let count = stored.count
        let results = UnsafeMutableBufferPointer<Result<DomainEvent, ProjectionError>?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, count / 1000))
        let shared = SendableBuffer(results)
        let events = stored
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: count, by: workers) {
                let event = events[index]
                do {
                    let decoded = try EventCoding.decode(type: event.type, schemaVersion: event.schemaVersion, payload: event.payload)
                    shared.buffer[index] = .success(decoded)
                } catch {
                    shared.buffer[index] = .failure(.unreadableEvent(position: event.position, reason: "\(error)"))
                }
            }
        }
        for index in 0..<count {
            guard let result = results[index] else { continue }
            try body(try result.get(), stored[index].time)
        }
    }
}

/// Lets workers write disjoint slots of one buffer; each index is written by exactly one worker, and
/// read only after `concurrentPerform` has returned.
private struct SendableBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
    init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}
