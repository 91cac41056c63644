import Dispatch
import Foundation
import PodcastDomain

/// Decodes events on every core.
///
/// Decoding payloads is the costliest step of a fold and it is pure, so runs of events are decoded in
/// parallel and handed back in their order, for the fold, which must stay sequential.
enum ParallelDecoding {
    /// Events decoded at once: enough to keep every core busy, few enough to bound memory.
    static let maximumRun = 16_384

    /// Calls `body` with each event of `events` and its index, in order, decoding ``maximumRun`` at a time.
    static func forEach(_ events: [RawEvent], _ body: (Int, DomainEvent) throws -> Void) throws {
        var start = 0
        while start < events.count {
            let end = min(start + maximumRun, events.count)
            try decodeRun(events[start..<end]) { offset, event in try body(start + offset, event) }
            start = end
        }
    }

    private static func decodeRun(_ run: ArraySlice<RawEvent>, _ body: (Int, DomainEvent) throws -> Void) throws {
        let count = run.count
        let results = UnsafeMutableBufferPointer<Result<DomainEvent, ProjectionError>?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, count / 1000))
        let shared = SendableBuffer(results)
        let first = run.startIndex
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for offset in stride(from: worker, to: count, by: workers) {
                shared.buffer[offset] = Result { () throws(ProjectionError) in try run[first + offset].decode() }
            }
        }
        for offset in 0..<count {
            try body(offset, results[offset]!.get())
        }
    }
}

/// Lets workers write disjoint slots of one buffer; each index is written by exactly one worker, and
/// read only after `concurrentPerform` has returned.
private struct SendableBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
    init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}
