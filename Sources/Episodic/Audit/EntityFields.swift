import PodcastDomain

/// One field of a podcast or an episode: whether two states differ in it, and its value as text.
/// Compared by value first, so that telling what a command changed writes only the fields it changed:
/// `submit` tells every command of a script.
struct EntityFieldReader<Entity>: Sendable {
    let field: EntityField
    let differs: @Sendable (Entity, Entity) -> Bool
    let text: @Sendable (Entity) -> String
    /// For a field of several parts (thumbnail settings), the parts that differ between two states.
    private(set) var parts: (@Sendable (Entity, Entity) -> [HistoryEntry.Change.Part])?

    init<Value: Equatable & SendableMetatype>(_ field: EntityField, _ value: @escaping @Sendable (Entity) -> Value, _ text: @escaping @Sendable (Value) -> String) {
        self.field = field
        differs = { value($0) != value($1) }
        self.text = { text(value($0)) }
    }

    /// Thumbnail settings, whose change is told by the settings that changed.
    static func settings(_ field: EntityField, _ value: @escaping @Sendable (Entity) -> ThumbnailSettings) -> Self {
        var reader = Self(field, value, FieldText.settings)
        reader.parts = { FieldText.settingsParts(value($0), value($1)) }
        return reader
    }
}

/// Every field of an entity, in the order `history` lists them.
enum EntityFields {
    static let podcast: [EntityFieldReader<Podcast>] = [
        .init(.name, \.name, FieldText.text), .init(.description, \.description, FieldText.text),
        .init(.artwork, \.artwork, FieldText.image), .init(.defaultOverlay, \.defaultOverlay, FieldText.image),
        .init(.defaultBackground, \.defaultBackground, FieldText.image),
        .settings(.thumbnailDefaults, \.thumbnailDefaults),
        .init(.defaultThumbnailText, \.defaultThumbnailText, FieldText.thumbnailText),
    ]

    static let episode: [EntityFieldReader<Episode>] = [
        .init(.title, \.title, FieldText.text), .init(.number, \.number, String.init),
        .init(.description, \.description, FieldText.text), .init(.publishDate, \.publishDate, FieldText.publishDate),
        .init(.transcript, \.transcript, FieldText.blob), .init(.subtitles, \.subtitles, FieldText.subtitles),
        .init(.background, \.background, FieldText.image), .init(.overlay, \.overlay, FieldText.image),
        .settings(.thumbnailSettings, \.thumbnailSettings),
        .init(.thumbnailText, \.thumbnailText, FieldText.thumbnailText), .init(.thumbnail, \.thumbnail, FieldText.thumbnail),
    ]
}
