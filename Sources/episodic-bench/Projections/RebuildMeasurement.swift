import Foundation

/// Runs `projections-rebuild-child` and reads back what it measured: each rebuild in a fresh process,
/// as `episodic rebuild` would run, with its own peak memory.
struct RebuildMeasurement: Decodable {
    let events: UInt64
    let seconds: Double
    /// RSS of the child just before the rebuild (the runtime, Foundation, an open log).
    let baselineBytes: UInt64
    /// `VmHWM` after the rebuild, the peak having been reset to the baseline just before it.
    let peakBytes: UInt64
    /// False when the kernel refused the reset: the peak then covers the child's whole life.
    let peakReset: Bool
    /// Blobs the projectors read, counted as they read them (one read twice counts twice), and their bytes.
    let blobReads: Int
    let blobBytes: Int
    /// Reading those blobs again, alone, once the rebuild was done.
    let blobSeconds: Double

    var eventsPerSecond: Double { Double(events) / seconds }

    static func run(library: String, readModels: String? = nil, projectors: String) throws -> RebuildMeasurement {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try ownExecutable())
        process.arguments = ["projections-rebuild-child", library, "--projectors", projectors]
            + (readModels.map { ["--read-models", $0] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchFailure("the rebuild child exited with status \(process.terminationStatus)")
        }
        return try JSONDecoder().decode(RebuildMeasurement.self, from: data)
    }

    private static func ownExecutable() throws -> String {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            throw BenchFailure("cannot find this executable through /proc/self/exe")
        }
        return path
    }
}
