import EventLog
import Foundation
import FuzzSupport

// Input: up to four segment files and a blob file, separated by Parts.marker (an empty part: no such
// file). Each input becomes a
// library on /dev/shm; the target opens it, reads it every way a reader can, verifies it, lets a writer
// repair and append, and reads it again. Nothing may crash, trap or hang; errors are the expected answer.
//
// One invariant is checked besides: when the whole log reads, a stream read through the stream index
// (derived from the log) returns exactly that stream's events.

let library = Scratch.folder + "/library"
let options = EventLog.Options(segmentSizeLimit: 2048, lockTimeout: .seconds(1), indexMergeThreshold: 4)

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let parts = Parts.split(UnsafeRawBufferPointer(start: data, count: size), max: 5)
    Scratch.emptyLibrary(at: library)
    let ref = BlobStore.reference(for: LogSeeds.blobContent)
    for (index, part) in parts.enumerated() where !part.isEmpty {
        if index == 4 {
            mkdir(library + "/blobs/" + ref.sha256.prefix(2), 0o777)
            Scratch.write(part, to: library + "/blobs/" + ref.sha256.prefix(2) + "/" + ref.sha256.dropFirst(2))
        } else {
            Scratch.write(part, to: library + "/log/" + String(format: "%08d.seg", index + 1))
        }
    }
    exercise(blob: ref)
    return 0
}

func exercise(blob ref: BlobRef) {
    guard let log = try? EventLog(at: library, options: options) else { return }
    readEverything(log)
    _ = try? log.blobs.get(ref)
    _ = try? log.verify()

    // A writer: repairs what it may, stores a blob (rewriting a damaged one), appends, persists the index.
    _ = try? log.write { writer in
        _ = try writer.version(of: "fuzz")
        _ = try log.blobs.put(LogSeeds.blobContent)
        try writer.append(Commit(
            events: [ProposedEvent(stream: "fuzz", type: "Fuzzed", json: #"{"n":1}"#, blobs: [ref])],
            commandID: CommandID(UUID()), actor: "fuzz", timestamp: Timestamp(rawValue: 1_790_000_000_000)!))
    }
    guard let reopened = try? EventLog(at: library, options: options) else { return }
    readEverything(reopened)
    _ = try? reopened.verify()
}

func readEverything(_ log: EventLog) {
    _ = try? log.readHeads { _ in }
    guard let events = try? log.events() else {
        // Damage somewhere: still, each stream read must end in an answer or an error.
        for stream in ["fuzz", "s1", "s2"] as [StreamID] { _ = try? log.events(in: stream) }
        return
    }
    // As appended, each left-out prev put back from its frame: the same events.
    var appended: [LogPosition] = []
    if (try? log.readAsAppended(from: LogPosition(1), through: nil) { appended.append($0.position) }) == nil || appended != events.map(\.position) {
        broken("the log read as appended differs from the log read as stored")
    }
    if let middle = events.dropFirst(events.count / 2).first {
        _ = try? log.events(from: middle.position)
    }
    for stream in Set(events.map(\.stream)).sorted(by: { $0.rawValue < $1.rawValue }).prefix(8) {
        guard let read = try? log.events(in: stream) else { broken("stream \(stream) cannot be read through the index, though the whole log reads") }
        if read != events.filter({ $0.stream == stream }) { broken("stream \(stream) read through the index differs from the log") }
        _ = try? log.readAsAppended(stream: stream) { _ in }
    }
}
