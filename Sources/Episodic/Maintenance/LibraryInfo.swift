import EventLog
import Foundation
import PostgresLog
import Projections

/// A library at a glance (`episodic info`): where it is, its log and files, what it holds, where its
/// read models stand and its last backup. Gathered by ``Library/info()``, which only reads.
public struct LibraryInfo: Sendable {
    /// Podcasts or episodes: those a list shows, and those deleted (which undo can bring back).
    public struct Count: Sendable, Equatable {
        public var live: Int
        public var deleted: Int
    }

    /// The lengths of the library's files, in bytes, by what they are.
    public struct DiskUsage: Sendable, Equatable {
        /// `log/`: the segments.
        public var log: UInt64 = 0
        /// `index/` and `snapshots/`: the stream index and the folds kept of long streams, derived from the log.
        public var index: UInt64 = 0
        /// `blobs/`: transcripts, subtitles, images and fonts.
        public var blobs: UInt64 = 0
        /// `read/` and `read.sqlite`: every generation of the read models, with SQLite's WAL files.
        public var readModels: UInt64 = 0
        /// `quarantine/`: what writers set aside from the end of the log.
        public var quarantine: UInt64 = 0
        /// The small files at the top (FORMAT, ID, LOCK, ...).
        public var other: UInt64 = 0

        public var total: UInt64 { log + index + blobs + readModels + quarantine + other }
    }

    /// The library folder's absolute path.
    public var path: String
    /// For the side of a shared library, where its server is (the URL without a password); nil for a
    /// library of its own.
    public var shared: SharedLocation?
    /// The format the FORMAT file declares (``Library/formatVersion`` is the one this build writes).
    public var formatVersion: UInt32
    /// The last event's position; positions have no gaps, so also the number of events.
    public var head: LogPosition
    public var segments: [SegmentSummary]
    public var diskUsage: DiskUsage
    public var podcasts: Count
    public var episodes: Count
    public var fonts: Int
    /// Each read model as it stands: `info` catches none up.
    public var projections: [ProjectionStatus]
    public var lastBackup: LastBackup
}

extension Library {
    /// The library at a glance. It reads the log, the folder's file sizes and the read models' own
    /// checkpoints, and writes nothing: it works on a library this process cannot write, and on a shared
    /// library's side without asking the server (the counts are this machine's copy's).
    ///
    /// The counts come from the log's lifecycle events, so they are the log's whether or not the read
    /// models are behind; that is one sequential read of the log's event heads, without payloads (the
    /// `log` benchmark reads whole envelopes at over a million events a second).
    public func info() throws -> LibraryInfo {
        try log.refresh()
        let head = log.head
        let census = try EntityCensus(log, through: head)
        return LibraryInfo(
            path: URL(fileURLWithPath: path).standardizedFileURL.path,
            shared: (store as? SharedStore).map { SharedLocation(endpoint: $0.endpoint, schema: $0.schema) },
            formatVersion: log.storedFormatVersion,
            head: head,
            segments: log.segmentSummaries,
            diskUsage: LibraryInfo.DiskUsage(measuring: path),
            podcasts: census.podcasts,
            episodes: census.episodes,
            fonts: try fonts().count,
            projections: try projectionStatus(),
            lastBackup: lastBackup)
    }
}
