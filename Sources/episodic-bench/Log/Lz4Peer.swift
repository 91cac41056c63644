import Foundation

/// The `lz4` tool on the same segment files, measured in the same run: how fast the reference decoder
/// reads them, and how small the reference encoder makes their JSON as one frame. Nil when `lz4` is not
/// installed (`tools/run` installs it).
enum Lz4Peer {
    static var tool: String? {
        ["/usr/bin/lz4", "/usr/local/bin/lz4"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Seconds `lz4 -dc` takes over every segment of `library`, output discarded: median of 3, warm.
    static func decodeSeconds(library: String) throws -> Double? {
        guard let tool else { return nil }
        let segments = try segmentPaths(library)
        var rounds: [Double] = []
        for _ in 0..<3 {
            var status: Int32 = 0
            let seconds = try timed { status = try Spawn.run("/bin/sh", ["-c", #"cat "$@" | "$0" -dc"#, tool] + segments) }
            guard status == 0 else { throw BenchFailure("lz4 -dc exited with \(status) on \(library)") }
            rounds.append(seconds)
        }
        return rounds.median
    }

    /// The bytes `lz4 -<level> -BD` (linked 4 MiB blocks) makes of the JSON of every segment of
    /// `library` as one frame: about the least an LZ4 frame of that content can weigh.
    static func oneFrameBytes(library: String, level: Int) throws -> Int? {
        guard let tool else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"cat "$@" | "$0" -dc | "$0" -q -\#(level) -BD -c | wc -c"#, tool] + (try segmentPaths(library))
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let bytes = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchFailure("lz4 -\(level) did not run on \(library)")
        }
        return bytes
    }

    private static func segmentPaths(_ library: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: library + "/log").filter { $0.hasSuffix(".seg") }.sorted()
            .map { library + "/log/" + $0 }
    }
}
