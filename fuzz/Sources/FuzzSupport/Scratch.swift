import EventLog
import Foundation

/// A folder of this process's own on /dev/shm (memory: every input becomes files), inside
/// $EPISODIC_FUZZ_SCRATCH when set (tools/fuzz sets it, and removes it after the run, since libFuzzer
/// does not always leave through `exit`).
public enum Scratch {
    public static let folder: String = {
        let parent = ProcessInfo.processInfo.environment["EPISODIC_FUZZ_SCRATCH"].map { $0 + "/" }
            ?? (access("/dev/shm", W_OK) == 0 ? "/dev/shm/" : NSTemporaryDirectory())
        var template = Array((parent + "episodic-fuzz-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("cannot make a scratch folder in \(parent)") }
        let path = String(cString: made)
        atexit { try? FileManager.default.removeItem(atPath: Scratch.folder) }
        return path
    }()

    /// Makes `path` an empty library: its folders and a FORMAT file, nothing else.
    public static func emptyLibrary(at path: String) {
        try? FileManager.default.removeItem(atPath: path)
        for folder in ["", "/log", "/index", "/blobs"] { mkdir(path + folder, 0o777) }
        write(Array("episodic library format 1\n".utf8), to: path + "/FORMAT")
    }

    /// Writes `bytes` to `path`, replacing it; plain calls, nothing synced (it is all in memory).
    public static func write(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else { fatalError("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { fatalError("cannot write \(path): \(String(cString: strerror(errno)))") }
            done += n
        }
    }

    public static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }
}

/// An input stands for several files, one after the other, each ended by ``marker``: libFuzzer mutates
/// them as one byte string, and the marker (in the targets' dictionaries) keeps them apart.
public enum Parts {
    public static let marker = Array("\nEPFUZZ\n".utf8)

    public static func split(_ input: UnsafeRawBufferPointer, max: Int) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var start = 0
        var at = 0
        while at + marker.count <= input.count && parts.count < max - 1 {
            if input[at] == marker[0] && marker.indices.allSatisfy({ input[at + $0] == marker[$0] }) {
                parts.append(Array(input[start..<at]))
                at += marker.count
                start = at
            } else {
                at += 1
            }
        }
        parts.append(Array(input[start...]))
        return parts
    }

    public static func join(_ parts: [[UInt8]]) -> [UInt8] {
        parts.enumerated().flatMap { index, part in index == parts.count - 1 ? part : part + marker }
    }
}

/// Stops the run with a message that libFuzzer reports as a crash, with the input that caused it.
public func broken(_ message: String) -> Never {
    FileHandle.standardError.write(Data("invariant broken: \(message)\n".utf8))
    abort()
}

/// The seed corpus is written by the targets themselves, with the real writer, when this variable names
/// a folder (see fuzz/README.md).
public let seedFolder = ProcessInfo.processInfo.environment["EPISODIC_FUZZ_WRITE_SEEDS"]

public func writeSeeds(_ seeds: [(name: String, parts: [[UInt8]])], to folder: String) {
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for seed in seeds { Scratch.write(Parts.join(seed.parts), to: folder + "/" + seed.name) }
    print("wrote \(seeds.count) seeds to \(folder)")
}
