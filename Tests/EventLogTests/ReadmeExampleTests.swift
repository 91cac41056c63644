import Foundation
import TestSupport
import Testing

import EventLog

/// The README's example, as written there, so that the README stays true.
@Suite("README")
struct ReadmeExampleTests {
    @Test("the example runs and `lz4 -dc | jq` prints what the README shows")
    func example() throws {
        let library = TemporaryLibrary()
        let log = try EventLog.create(at: library.path)
        let episode = StreamID(rawValue: "episode-42")!

        let result = try log.write { writer in
            try writer.append(Commit(
                events: [ProposedEvent(stream: episode, type: "EpisodeRetitled", json: #"{"title":"Pilot"}"#)],
                expectations: [episode: .noStream],
                commandID: CommandID(UUID()), actor: "ana", timestamp: Timestamp(Date())!))
        }
        #expect(result.positions == LogPosition(1)...LogPosition(1))

        var seen: [String] = []
        try log.read(from: LogPosition(1)) { event in seen.append("\(event.position) \(event.stream) \(event.type)") }
        #expect(seen == ["1 episode-42 EpisodeRetitled"])
        #expect(try log.events(in: episode).count == 1)
        #expect(try log.verify().isClean)

        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/lz4"),
            FileManager.default.isExecutableFile(atPath: "/usr/bin/jq")
        else {
            try Need.unmet("the lz4 | jq part needs lz4 and jq (apt-get install lz4 jq)")
            return
        }
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "lz4 -dc '\(library.path)/log/00000001.seg' | jq -c '{position, stream, type}'"]
        let out = Pipe()
        shell.standardOutput = out
        try shell.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(printed == #"{"position":1,"stream":"episode-42","type":"EpisodeRetitled"}"# + "\n")
    }
}
