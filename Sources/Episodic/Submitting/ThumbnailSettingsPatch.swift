import PodcastDomain

/// A change to some thumbnail settings: each setting given replaces the current one, the others stay.
/// Applied when the command runs, under the writer lock, so a change made meanwhile by someone else
/// to another setting is kept.
public struct ThumbnailSettingsPatch: Hashable, Sendable, Decodable {
    /// True when it changes no setting.
    public var isEmpty: Bool { self == ThumbnailSettingsPatch() }

    /// Absent: keep the font. `.some(nil)`: the renderer's default font.
    public var fontName: String??
    public var fontSize: Double?
    public var textPositionX: Double?
    public var textPositionY: Double?
    public var horizontalPadding: Double?
    public var verticalPadding: Double?
    public var canvasWidth: Int?
    public var canvasHeight: Int?
    public var backgroundScaling: BackgroundScaling?
    public var fontColorHex: HexColor?
    public var outlineEnabled: Bool?
    public var outlineColorHex: HexColor?
    public var textFit: TextFit?
    public var overlayPlacement: OverlayPlacement?
    public var overlayScale: Double?
    public var overlayPositionX: Double?
    public var overlayPositionY: Double?

    public init() {}

    /// The settings given, laid over `settings`.
    public func applied(to settings: ThumbnailSettings) -> ThumbnailSettings {
        Self.fields.reduce(settings) { settings, field in field.apply(self, to: settings) }
    }

    /// The settings a patch can name, as a script writes them. A script's `settings` with any other key
    /// is refused, so that a misspelt setting is not silently left unchanged.
    public static var keys: [String] { fields.map(\.key) }

    /// What the setting `key` takes, in the words of a refusal; nil for a key that is not a setting.
    public static func expectedValue(of key: String) -> String? {
        fields.first { $0.key == key }?.expected
    }

    /// Null is a value only for `fontName` (the default font); for any other setting it is refused, as
    /// "keep" is said by leaving the setting out, and a null there is more likely a mistake.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SettingKey.self)
        for field in Self.fields { try field.decode(from: container, into: &self) }
    }

    /// Every setting, once: its key in scripts, what it takes, where it lives in a patch and in the
    /// settings, and how it is read. Applying, decoding and the lists of keys all come from here.
    static var fields: [any PatchField] {
        [
            Field(\.fontName, \.fontName, "fontName", "a string, or null for the default font"),
            Field(\.fontSize, \.fontSize, "fontSize", "a number"),
            Field(\.textPositionX, \.textPositionX, "textPositionX", "a number"),
            Field(\.textPositionY, \.textPositionY, "textPositionY", "a number"),
            Field(\.horizontalPadding, \.horizontalPadding, "horizontalPadding", "a number"),
            Field(\.verticalPadding, \.verticalPadding, "verticalPadding", "a number"),
            Field(\.canvasWidth, \.canvasWidth, "canvasWidth", "a whole number", reading: .whole),
            Field(\.canvasHeight, \.canvasHeight, "canvasHeight", "a whole number", reading: .whole),
            Field(\.backgroundScaling, \.backgroundScaling, "backgroundScaling",
                  "one of \"aspectFill\", \"aspectFit\" and \"stretch\""),
            Field(\.fontColorHex, \.fontColorHex, "fontColorHex", "a colour written #RRGGBB"),
            Field(\.outlineEnabled, \.outlineEnabled, "outlineEnabled", "true or false"),
            Field(\.outlineColorHex, \.outlineColorHex, "outlineColorHex", "a colour written #RRGGBB"),
            Field(\.textFit, \.textFit, "textFit", "one of \"shrink\", \"wrap\" and \"none\""),
            Field(\.overlayPlacement, \.overlayPlacement, "overlayPlacement", "one of \"fill\", \"fit\" and \"original\""),
            Field(\.overlayScale, \.overlayScale, "overlayScale", "a number"),
            Field(\.overlayPositionX, \.overlayPositionX, "overlayPositionX", "a number"),
            Field(\.overlayPositionY, \.overlayPositionY, "overlayPositionY", "a number"),
        ]
    }
}

/// One thumbnail setting as a patch carries it (see ``ThumbnailSettingsPatch/fields``).
protocol PatchField {
    var key: String { get }
    var expected: String { get }
    func apply(_ patch: ThumbnailSettingsPatch, to settings: ThumbnailSettings) -> ThumbnailSettings
    func decode(from container: KeyedDecodingContainer<SettingKey>, into patch: inout ThumbnailSettingsPatch) throws
}

/// A setting's key in a script's `settings` object.
struct SettingKey: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// A setting of type `Value`: given in a patch as `Value?`, nil meaning "keep".
private struct Field<Value: Decodable>: PatchField {
    /// How a script's value is read: as `Value` is decoded (so null only where `Value` is optional,
    /// the font), or as a number that must be whole, so that a refusal of `1920.5` names the setting.
    enum Reading { case plain, whole }

    let patch: WritableKeyPath<ThumbnailSettingsPatch, Value?>
    let settings: WritableKeyPath<ThumbnailSettings, Value>
    let key: String
    let expected: String
    let reading: Reading

    init(_ patch: WritableKeyPath<ThumbnailSettingsPatch, Value?>, _ settings: WritableKeyPath<ThumbnailSettings, Value>,
         _ key: String, _ expected: String, reading: Reading = .plain) {
        (self.patch, self.settings, self.key, self.expected, self.reading) = (patch, settings, key, expected, reading)
    }

    func apply(_ patch: ThumbnailSettingsPatch, to settings: ThumbnailSettings) -> ThumbnailSettings {
        guard let value = patch[keyPath: self.patch] else { return settings }
        var settings = settings
        settings[keyPath: self.settings] = value
        return settings
    }

    func decode(from container: KeyedDecodingContainer<SettingKey>, into patch: inout ThumbnailSettingsPatch) throws {
        let key = SettingKey(stringValue: self.key)
        guard container.contains(key) else { return }
        switch reading {
        case .plain:
            patch[keyPath: self.patch] = .some(try container.decode(Value.self, forKey: key))
        case .whole:
            // Read as a number first: the decoder refuses `1920.5` as an Int with an error that names
            // no key, so the refusal could not say which setting.
            let number = try container.decode(Double.self, forKey: key)
            guard let whole = Int(exactly: number), let value = whole as? Value else {
                throw DecodingError.typeMismatch(Int.self, .init(
                    codingPath: container.codingPath + [key], debugDescription: "\(number) is not a whole number"))
            }
            patch[keyPath: self.patch] = value
        }
    }
}
