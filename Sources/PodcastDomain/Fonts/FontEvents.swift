import CoreValues

// The facts of the fonts stream, named in the past tense.

/// A payload of the fonts stream.
public protocol FontEventPayload: EventPayload {
    /// The font's name, as imported.
    var name: String { get }
}

extension FontEventPayload {
    public var aggregate: AggregateKey { .fonts }
}

/// A font file was imported under a name thumbnail settings can use.
public struct FontImported: FontEventPayload {
    public var name: String
    public var font: BlobRef
    public var blobs: [BlobRef] { [font] }
}

/// The font of this name was removed; its blob stays, for undo.
public struct FontRemoved: FontEventPayload {
    public var name: String
}
