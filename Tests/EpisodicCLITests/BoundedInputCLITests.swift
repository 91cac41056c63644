import Foundation
import Testing

/// An input with a size limit is read with the limit: a file's size is checked before it is read, a
/// pipe is read up to the limit and then refused, and a transcript of blank lines costs about its
/// length. Measured as the peak memory (`/usr/bin/time`'s maximum resident set) of the real command.
@Suite("Inputs read within their limits")
struct BoundedInputCLITests {
    /// The transcript limit, 10 MB.
    static let limit = 10 * 1_048_576

    /// A library with an episode "Show/1".
    static func given() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        try cli.must("episode", "create", "Show", "One")
        return cli
    }

    /// Runs `arguments` under `/usr/bin/time`, after `feeding` (a shell pipeline whose output is its
    /// standard input) if given: the run, and its peak memory in bytes.
    static func measured(_ cli: CLI, _ arguments: [String], feeding: String? = nil) throws -> (run: CLI.Run, peak: Int) {
        let timed = "exec /usr/bin/time -f 'peak-kilobytes %M' \"$0\" \"$@\""
        cli.runAs = ["/bin/sh", "-c", feeding.map { "\($0) | \(timed)" } ?? timed]
        defer { cli.runAs = [] }
        let run = try cli.run(arguments)
        let line = try #require(run.err.split(separator: "\n").last { $0.hasPrefix("peak-kilobytes ") })
        return (run, try #require(Int(line.dropFirst("peak-kilobytes ".count))) * 1_024)
    }

    @Test("a 1.5 GB transcript file, a 1.5 GB pipe and a script naming the file are refused (exit 65) within a few times the limit in memory")
    func largeInputs() throws {
        let cli = try Self.given()
        // Given a small transcript's import, for what the command costs anyway
        let tiny = try cli.write("00:01.00\nAna\nHi.\n", to: "tiny.txt")
        let (imported, baseline) = try Self.measured(cli, ["transcript", "import", "Show/1", tiny])
        #expect(imported.status == 0, "\(imported.err)")

        // When a sparse file of 1.5 GB and 1.5 GB of a pipe are imported, and a script imports the file
        let sparse = cli.folder + "/large.txt"
        #expect(FileManager.default.createFile(atPath: sparse, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: sparse))
        try handle.truncate(atOffset: 1_500 * 1_048_576)
        try handle.close()
        let (file, filePeak) = try Self.measured(cli, ["transcript", "import", "Show/1", sparse])
        let (pipe, pipePeak) = try Self.measured(cli, ["transcript", "import", "Show/1", "-"], feeding: "head -c 1572864000 /dev/zero")
        let script = try cli.write(#"{"command":"transcript.import","episode":"Show/1","file":"\#(sparse)"}"# + "\n", to: "script.jsonl")
        let (submitted, submitPeak) = try Self.measured(cli, ["submit", script])

        // Then each is refused, saying the limit, having cost at most three times the limit beyond
        // the small import (it was 3.1 GB when the whole input was read first)
        for (run, peak) in [(file, filePeak), (pipe, pipePeak), (submitted, submitPeak)] {
            #expect(run.status == 65, "\(run.err)")
            #expect(run.err.contains("more than the 10 MB (10485760 bytes)"), "\(run.err)")
            #expect(peak <= baseline + 3 * Self.limit, "peak \(peak) bytes, a small import \(baseline)")
        }
        #expect(file.err.contains("it is 1.6 GB (1572864000 bytes)"), "\(file.err)")
        #expect(try cli.object("episode", "show", "Show/1")["transcript"] != nil)
    }

    @Test("a transcript of 9 MB of blank lines costs about its length in memory")
    func blankLines() throws {
        let cli = try Self.given()
        let tiny = try cli.write("00:01.00\nAna\nHi.\n", to: "tiny.txt")
        let (_, baseline) = try Self.measured(cli, ["transcript", "import", "Show/1", tiny])
        // Given 9 MB of blank lines between two turns
        let blank = 9_000_000
        let path = try cli.write("00:01.00\nAna\nHello.\n" + String(repeating: "\n", count: blank) + "00:05.00\nBo\nBye.\n", to: "blank.txt")

        // When it is imported and converted
        let (imported, importPeak) = try Self.measured(cli, ["transcript", "import", "Show/1", path])
        let (converted, convertPeak) = try Self.measured(cli, ["transcript", "convert", "Show/1"])

        // Then each costs at most four times its length beyond the small import (it holds the bytes and
        // their text, once each; 650 MB before)
        #expect(imported.status == 0 && converted.status == 0, "\(imported.err) \(converted.err)")
        #expect(importPeak <= baseline + 4 * blank, "import: peak \(importPeak) bytes, a small import \(baseline)")
        #expect(convertPeak <= baseline + 4 * blank, "convert: peak \(convertPeak) bytes, a small import \(baseline)")
    }
}
