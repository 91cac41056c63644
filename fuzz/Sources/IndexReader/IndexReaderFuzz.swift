import EventLog
import Foundation
import FuzzSupport

// Input: index/streams.sorted, then index/streams.tail (an empty part: no such file), beside a valid log
// the real writer made. The index is derived data: whatever its files hold, every read through it must
// give exactly what the log holds, and the writer must see every stream's true version. Anything else,
// a thrown error included, is reported as a crash.

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let parts = Parts.split(UnsafeRawBufferPointer(start: data, count: size), max: 2)
    for (path, part) in zip([IndexTemplate.sortedPath, IndexTemplate.tailPath], parts + [[]]) {
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
