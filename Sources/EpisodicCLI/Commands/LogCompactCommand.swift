import ArgumentParser
import Episodic
import Foundation

extension LogCommands {
    struct Compact: LibraryFilesCommand {
        static let configuration = CommandConfiguration(
            commandName: "compact",
            abstract: "Recompress the log's sealed segments into large frames, to take less space.",
            discussion: """
                Each command appends its commit as a small LZ4 frame of its own, which hardly compresses \
                (about 1.1 times smaller than its JSON). Commands that write seal the segment they write once it \
                is full (512 KiB while the log is young, up to 8 MiB), and compact each sealed segment themselves \
                (LZ4-HC level 4, 64 KiB frames). This command rewrites sealed segments at another level or in \
                larger frames, or those a library written before automatic compaction still holds. The segment \
                still being written is left alone.

                Its frames hold 1 MiB of JSON each: about a third less space than the automatic ones (7.6 \
                against 5.5 times smaller than their JSON, on a benchmark library of a million events). But \
                reading one event through the stream index decodes its whole frame, so the first command to \
                read an old episode's history on this machine (the next start from a fold of it kept here) \
                reads it more slowly: 100 retitles of episodes of 130 events each took 5.2 s after this \
                command, 0.6 s after automatic compaction.

                Positions, events and the hash chain do not change; `lz4 -dc` still reads every segment, and \
                `episodic log verify` checks the result. Each segment is replaced whole, so an interrupted \
                compaction leaves the old one. It runs as a writer: other writers wait for it, readers do not. \
                On a shared library, it compacts this machine's copy of the log.

                Examples:
                  episodic log compact
                  episodic log compact --level 12   smaller, slower to write
                  episodic log compact --all        the compacted ones again too
                """)
        @OptionGroup var global: GlobalOptions
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("The LZ4-HC level: 3 is faster, 12 smaller (default 9).", valueName: "3-12"),
            transform: NumberArgument.whole(3...12))
        var level = Int(CompactionSettings().level)
        @Flag(help: "Rewrite the segments compacted before too (at another level, say).") var all = false

        func runOnLibraryFiles() throws {
            try Session.run(global) { session in
                let library = try session.openLog()
                let report = try library.compactLog(CompactionSettings(level: Int32(level), includeCompacted: all))
                if global.json { return session.printJSON(CompactionRecord(report)) }
                guard report.segmentsCompacted > 0 else {
                    return Terminal.say(TerminalText("Nothing to compact: " + Self.nothingToDo(library.logSegments)))
                }
                Terminal.say(TerminalText(
                    "Compacted \(Amount.count(report.segmentsCompacted, "segment")): "
                        + "\(Amount.size(report.bytesBefore)) → \(Amount.size(report.bytesAfter)) "
                        + "(\(String(format: "%.2f", report.ratio))x smaller than their JSON, \(Amount.size(report.jsonBytes)))."))
            }
        }

        /// Why a compaction rewrote nothing, from the segments it found.
        static func nothingToDo(_ segments: [SegmentSummary]) -> String {
            let sealed = segments.filter(\.isSealed)
            if segments.isEmpty { return "the log is empty." }
            if sealed.isEmpty { return "the log has one segment, which is still being written; a segment is compacted once it is full." }
            return "its \(Amount.count(sealed.count, "sealed segment")) \(sealed.count == 1 ? "is" : "are") compacted already; "
                + "--all compacts \(sealed.count == 1 ? "it" : "them") again."
        }
    }
}

/// `log compact --json`.
private struct CompactionRecord: Encodable {
    var segmentsCompacted: Int
    var bytesBefore: UInt64
    var bytesAfter: UInt64
    var jsonBytes: UInt64
    /// How many times smaller than their JSON the rewritten segments are, to two decimals; 0 when none were.
    var ratio: Double

    init(_ report: CompactionReport) {
        segmentsCompacted = report.segmentsCompacted
        bytesBefore = report.bytesBefore
        bytesAfter = report.bytesAfter
        jsonBytes = report.jsonBytes
        ratio = (report.ratio * 100).rounded() / 100
    }
}
