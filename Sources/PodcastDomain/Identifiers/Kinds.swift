import CoreValues

public enum PodcastKind: IdentifiedKind { public static let streamPrefix = "podcast" }
public enum EpisodeKind: IdentifiedKind { public static let streamPrefix = "episode" }

public typealias PodcastID = Identifier<PodcastKind>
public typealias EpisodeID = Identifier<EpisodeKind>
