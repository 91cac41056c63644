import EventLog
import Foundation
import FuzzSupport

// Input: index/streams.sorted, then index/streams.tail, then the fold kept of the first stream
// (snapshots/), then the segment catalog (index/segments), then index/streams.recent (an empty
// part: no such file), beside a valid log the real writer made. They are derived
// data: whatever their files hold, every read through them must give exactly what the log holds, and
// the writer must see every stream's true version. Anything else, a thrown error included, is reported
// as a crash.

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let parts = Parts.split(UnsafeRawBufferPointer(start: data, count: size), max: 5)
    mkdir(IndexTemplate.path + "/snapshots", 0o777)
    let paths = [IndexTemplate.sortedPath, IndexTemplate.tailPath, IndexTemplate.keptFoldPath, IndexTemplate.catalogPath, IndexTemplate.recentPath]
    for (path, part) in zip(paths, parts + [[], [], [], []]) {
        unlink(path)
        if !part.isEmpty { Scratch.write(part, to: path) }
    }
    check()
    return 0
}

func check() {
    let truth = IndexTemplate.events
    do {
        let log = try EventLog(at: IndexTemplate.path, options: IndexTemplate.options)
        for stream in IndexTemplate.streams + ["no-such-stream"] {
            let read = try log.events(in: stream)
            if read != truth.filter({ $0.stream == stream }) { broken("stream \(stream) read through the index differs from the log") }
        }
        // A kept fold is used only after the very event it names: then what follows it is the log's.
        let first = IndexTemplate.streams[0]
        for (_, kept) in log.snapshots.all() {
            var after: [RecordedEvent] = []
            guard try log.read(stream: first, after: kept.point, { after.append(RecordedEvent($0)) }) else { continue }
            let stream = truth.filter { $0.stream == first }
            guard let at = stream.firstIndex(where: { $0.position == kept.point.position }), at + 1 == kept.point.version,
                try log.identity(at: kept.point.position) == kept.point.identity
            else { broken("a kept fold at \(kept.point) was taken though the log does not hold that event") }
            if after != Array(stream[(at + 1)...]) { broken("the events after a kept fold at \(kept.point) differ from the log") }
        }
        for start in [1, truth.count / 3, truth.count - 1] {
            if try log.events(from: LogPosition(UInt64(start))) != Array(truth[(start - 1)...]) {
                broken("a read from position \(start) differs from the log")
            }
        }
        try log.write { writer in
            for stream in IndexTemplate.streams {
                let version = try writer.version(of: stream)
                if version != truth.filter({ $0.stream == stream }).count { broken("the writer sees stream \(stream) at version \(version)") }
            }
        }
    } catch {
        broken("reading a valid log failed: \(error)")
    }
}
