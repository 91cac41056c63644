import Foundation
import TestSupport
import Testing

@testable import EventLog

/// A library in a fresh temporary folder, removed when the test ends.
final class TemporaryLibrary {
    private let temporary: TemporaryFolder
    var folder: String { temporary.path }
    var path: String { folder + "/library" }

    /// `inMemory`: on /dev/shm (see ``TemporaryFolder``), for tests that make hundreds of libraries.
    init(inMemory: Bool = false) {
        temporary = TemporaryFolder("eventlog-test", inMemory: inMemory)
    }

    func create(_ options: EventLog.Options = EventLog.Options()) throws -> EventLog {
        try EventLog.create(at: path, options: options)
    }

    func open(_ options: EventLog.Options = EventLog.Options()) throws -> EventLog {
        try EventLog(at: path, options: options)
    }

    func segmentPath(_ number: UInt32) -> String { path + "/log/" + Segment.name(of: number) }

    func size(of file: String) throws -> UInt64 {
        (try FileManager.default.attributesOfItem(atPath: file)[.size] as! NSNumber).uint64Value
    }

    /// Every file under the library with its size and bytes, to show that a refusal changed nothing.
    func snapshot() throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        guard let walker = FileManager.default.enumerator(atPath: path) else { return files }
        for case let relative as String in walker {
            let full = path + "/" + relative
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
            files[relative] = isDirectory.boolValue ? [] : Array(FileManager.default.contents(atPath: full) ?? Data())
        }
        return files
    }

    /// Flips one bit of a file in place.
    func flipBit(in file: String, at offset: UInt64) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: file))
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        let byte = try handle.read(upToCount: 1)![0]
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: [byte ^ 0x10])
    }

    func truncate(_ file: String, to size: UInt64) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: file))
        try handle.truncate(atOffset: size)
        try handle.close()
    }
}

/// Builders for the commits the tests append.
enum Given {
    static let epoch = Timestamp(rawValue: 1_790_000_000_000)!

    static func event(_ stream: StreamID, _ type: String = "Happened", _ json: String = #"{"n":1}"#, blobs: [BlobRef] = []) -> ProposedEvent {
        ProposedEvent(stream: stream, type: type, json: json, blobs: blobs)
    }

    static func commit(
        _ events: ProposedEvent..., expecting expectations: [StreamID: ExpectedVersion] = [:],
        actor: String = "ana", at time: Timestamp = epoch, undoes: CommandID? = nil
    ) -> Commit {
        Commit(events: events, expectations: expectations, commandID: CommandID(UUID()), actor: actor, timestamp: time, undoes: undoes)
    }

    /// Appends `count` single-event commits to `stream`, each with payload {"i":N}.
    @discardableResult
    static func appended(_ count: Int, to stream: StreamID, in log: EventLog) throws -> [AppendResult] {
        try log.write { writer in
            try (1...count).map { i in try writer.append(commit(event(stream, "Counted", #"{"i":\#(i)}"#))) }
        }
    }
}

extension EventLog {
    /// The payloads of every event, as text, in log order.
    func allPayloads() throws -> [String] {
        try events().map(\.json)
    }
}

/// The child-process helper built beside the test bundle.
enum TestWriter {
    static var path: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("eventlog-test-writer")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url.path }
        }
        // `swift test` runs the bundle from .build/<config>/; fall back to the current build folder.
        return FileManager.default.currentDirectoryPath + "/.build/debug/eventlog-test-writer"
    }

    /// `user` runs the helper as another user (by uid, through setpriv), from a copy of the binary in
    /// `copyTo`: the build folder may sit where that user cannot reach it.
    static func process(_ arguments: [String], as user: String? = nil, copyTo folder: String? = nil) -> (Process, Pipe, Pipe) {
        let process = Process()
        if let user, let folder {
            let copy = folder + "/eventlog-test-writer"
            try? FileManager.default.removeItem(atPath: copy)
            try! FileManager.default.copyItem(atPath: path, toPath: copy)
            chmod(copy, 0o755)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", copy] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        return (process, out, err)
    }

    /// Runs to the end; returns the exit status and what it printed.
    static func run(_ arguments: [String], as user: String? = nil, copyTo folder: String? = nil) throws -> (status: Int32, out: String, err: String) {
        let (process, out, err) = process(arguments, as: user, copyTo: folder)
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    /// The commits a writer reported as done: (tag, i, first, last).
    static func acknowledged(in output: String) -> [(tag: String, i: Int, first: UInt64, last: UInt64)] {
        output.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 5, parts[0] == "done", let i = Int(parts[2]), let first = UInt64(parts[3]),
                let last = UInt64(parts[4])
            else { return nil }
            return (String(parts[1]), i, first, last)
        }
    }
}

extension TemporaryLibrary {
    /// Where each frame of a segment starts, and where the file ends.
    func frameOffsets(ofSegment number: UInt32 = 1) throws -> (frames: [UInt64], end: UInt64) {
        let file = try File.openForReading(segmentPath(number))
        let end = try file.size()
        var cursor = FrameCursor(file: file, from: UInt64(SegmentHeader.size), end: end, buffer: ByteBuffer(capacity: 1 << 20))
        var offsets: [UInt64] = []
        while case .frame(let offset, _) = try cursor.next() { offsets.append(offset) }
        return (offsets, end)
    }

    func write(_ bytes: [UInt8], to file: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: file))
    }

    func read(_ file: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: file)))
    }
}
