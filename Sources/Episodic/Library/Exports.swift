// What `import Episodic` brings, so that an app, like the CLI, needs no other import.
//
// The domain's values (ids, commands, events, states, settings) and the shared value types are the
// library's vocabulary, so their modules come along whole. Of the log, the read models and the
// renderer, only the values that the facade's calls take or return are published, one by one: the
// log itself, the SQLite connections and the projector runtime stay behind the facade.

@_exported import CoreValues
@_exported import PodcastDomain

// The log's values.
@_exported import struct EventLog.LogPosition
@_exported import struct EventLog.StreamID
@_exported import struct EventLog.RecordedEvent
@_exported import struct EventLog.RecoveryReport
@_exported import struct EventLog.SetAsideDerivedFile
@_exported import struct EventLog.VerificationReport
@_exported import struct EventLog.BackupReport
@_exported import struct EventLog.RestoreReport
@_exported import enum EventLog.EventLogError
@_exported import enum EventLog.BackupError
@_exported import struct EventLog.CompactionSettings
@_exported import struct EventLog.CompactionReport
@_exported import struct EventLog.SegmentSummary

// The threads of a command's process (package-wide, for the command line; not an app's).
@_exported import enum EventLog.DetachedThread
@_exported import class EventLog.Handoff

// A shared library's server.
@_exported import struct PostgresLog.PostgresEndpoint
@_exported import enum PostgresLog.SharedLogError

// The log's events as the domain's.
@_exported import struct EventCodec.UnreadableEvent

// The read models' answers.
@_exported import struct Projections.PodcastSummary
@_exported import struct Projections.EpisodeSummary
@_exported import struct Projections.EpisodeDetail
@_exported import struct Projections.DeletedEpisode
@_exported import struct Projections.EpisodeQuery
@_exported import enum Projections.EpisodeSort
@_exported import enum Projections.EpisodeFilter
@_exported import struct Projections.SearchHit
@_exported import struct Projections.SearchProblem
@_exported import struct Projections.ProjectionStatus
@_exported import struct Projections.ReadModelDifference
@_exported import enum Projections.ReadModelNotice
@_exported import enum Projections.ReadModelRemedy
@_exported import struct Projections.RebuildProgress
@_exported import enum Projections.ProjectionError
@_exported import enum Projections.ReadModelFailure

// Thumbnails and images.
@_exported import typealias ThumbnailRenderer.ImageFormat
@_exported import enum ThumbnailRenderer.ImageError
@_exported import enum ThumbnailRenderer.ThumbnailError
