// A child process for the projection crash tests.
//
//   projection-test-rebuilder LIBRARY BATCH-SIZE PAUSE-MS explicit|at-open
//
// `explicit` opens the library's read models and rebuilds all of them; `at-open` only opens them, which
// rebuilds those whose schema version is not this build's. Either way it replays BATCH-SIZE events per
// transaction, printing `progress DONE TOTAL` and pausing PAUSE-MS after each batch, so that a test can
// kill it mid-way; then it prints `done` once the new generation is live.
import EventLog
import Foundation
import Projections

let arguments = CommandLine.arguments
guard arguments.count == 5, let batchSize = Int(arguments[2]), let pause = UInt32(arguments[3]),
    ["explicit", "at-open"].contains(arguments[4])
else {
    FileHandle.standardError.write(Data("usage: projection-test-rebuilder LIBRARY BATCH-SIZE PAUSE-MS explicit|at-open\n".utf8))
    exit(64)
}
let report: (RebuildProgress) -> Void = { progress in
    FileHandle.standardOutput.write(Data("progress \(progress.done) \(progress.total)\n".utf8))
    usleep(pause * 1000)
}
do {
    let log = try EventLog(at: arguments[1])
    let readModel = try ReadModel(library: arguments[1], log: log, batchSize: batchSize, progress: report)
    if arguments[4] == "explicit" { try readModel.rebuild(log: log, progress: report) }
    FileHandle.standardOutput.write(Data("done\n".utf8))
} catch {
    FileHandle.standardError.write(Data("projection-test-rebuilder: \(error)\n".utf8))
    exit(1)
}
