import ArgumentParser
import EventLog
import Foundation
import Projections

/// `episodic-bench projections-rebuild-child LIBRARY`: one full rebuild, in a process of its own, so
/// that its peak resident memory is the rebuild's and not the generator's. Prints one JSON line for
/// `RebuildMeasurement`, with the blobs the projectors read (counted as they read them) and how long
/// reading those same blobs again takes alone; not meant to be run by hand.
struct RebuildChild: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "projections-rebuild-child",
        abstract: "One projection rebuild in its own process (used by `projections`).",
        shouldDisplay: false)

    /// Events per transaction: `ReadModel`'s default.
    static let batchSize = 100_000

    @Argument(help: "The library whose log is replayed.")
    var library: String

    @Option(help: "Where the read models go (default: the library itself).")
    var readModels: String?

    @Option(help: "Which projectors: sidebar,episode-detail or search.")
    var projectors = "sidebar,episode-detail"

    @Option(help: "Events per transaction (to try other batch sizes by hand).")
    var batchSize = RebuildChild.batchSize

    func run() throws {
        let log = try EventLog(at: library)
        let folder = readModels ?? library
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let counter = BlobReadCounter()
        let chosen = try ProjectorChoice.projectors(named: projectors, blobs: counter.reader(of: log.blobs))
        let model = try ReadModel(library: folder, log: log, projectors: chosen, batchSize: batchSize)
        let baseline = ResidentMemory.currentBytes() ?? 0
        let reset = ResidentMemory.resetPeak()
        let seconds = try timed { try model.rebuild(log: log) }
        let peak = ResidentMemory.peakBytes() ?? 0
        let (reads, bytes) = counter.tally
        // The same blobs again, in the same order, with nothing else: the input side's own speed, warm.
        let read = counter.read
        let blobSeconds = try timed { for ref in read { _ = try log.blobs.get(ref) } }
        print(
            #"{"events":\#(log.head.rawValue),"seconds":\#(seconds),"baselineBytes":\#(baseline),"peakBytes":\#(peak),"#
                + #""peakReset":\#(reset),"blobReads":\#(reads),"blobBytes":\#(bytes),"blobSeconds":\#(blobSeconds)}"#)
    }
}
