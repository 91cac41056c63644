import PodcastDomain

/// A change to some thumbnail settings: each setting given replaces the current one, the others stay.
/// Applied when the command runs, under the writer lock, so a change made meanwhile by someone else
/// to another setting is kept.
public struct ThumbnailSettingsPatch: Hashable, Sendable, Decodable {
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

    public init() {}

    public func applied(to settings: ThumbnailSettings) -> ThumbnailSettings {
        var settings = settings
        if let fontName { settings.fontName = fontName }
        if let fontSize { settings.fontSize = fontSize }
        if let textPositionX { settings.textPositionX = textPositionX }
        if let textPositionY { settings.textPositionY = textPositionY }
        if let horizontalPadding { settings.horizontalPadding = horizontalPadding }
        if let verticalPadding { settings.verticalPadding = verticalPadding }
        if let canvasWidth { settings.canvasWidth = canvasWidth }
        if let canvasHeight { settings.canvasHeight = canvasHeight }
        if let backgroundScaling { settings.backgroundScaling = backgroundScaling }
        if let fontColorHex { settings.fontColorHex = fontColorHex }
        if let outlineEnabled { settings.outlineEnabled = outlineEnabled }
        if let outlineColorHex { settings.outlineColorHex = outlineColorHex }
        return settings
    }

    /// The settings a patch can name, as a script writes them. A script's `settings` with any other key
    /// is refused, so that a misspelt setting is not silently left unchanged.
    public static let keys: [String] = CodingKeys.allCases.map(\.rawValue)

    /// What the setting `key` takes, in the words of a refusal; nil for a key that is not a setting. A
    /// switch over the keys, so that a setting cannot be added without them.
    public static func expectedValue(of key: String) -> String? {
        switch CodingKeys(rawValue: key) {
        case nil: nil
        case .fontName: "a string, or null for the default font"
        case .fontSize, .textPositionX, .textPositionY, .horizontalPadding, .verticalPadding: "a number"
        case .canvasWidth, .canvasHeight: "a whole number"
        case .backgroundScaling: "one of \"aspectFill\", \"aspectFit\" and \"stretch\""
        case .fontColorHex, .outlineColorHex: "a colour written #RRGGBB"
        case .outlineEnabled: "true or false"
        }
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case fontName, fontSize, textPositionX, textPositionY, horizontalPadding, verticalPadding, canvasWidth,
            canvasHeight, backgroundScaling, fontColorHex, outlineEnabled, outlineColorHex
    }

    /// Null is a value only for `fontName` (the default font); for any other setting it is refused, as
    /// "keep" is said by leaving the setting out, and a null there is more likely a mistake.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.fontName) {
            fontName = .some(try container.decodeNil(forKey: .fontName) ? nil : try container.decode(String.self, forKey: .fontName))
        }
        fontSize = try Self.given(.fontSize, in: container)
        textPositionX = try Self.given(.textPositionX, in: container)
        textPositionY = try Self.given(.textPositionY, in: container)
        horizontalPadding = try Self.given(.horizontalPadding, in: container)
        verticalPadding = try Self.given(.verticalPadding, in: container)
        canvasWidth = try Self.givenWhole(.canvasWidth, in: container)
        canvasHeight = try Self.givenWhole(.canvasHeight, in: container)
        backgroundScaling = try Self.given(.backgroundScaling, in: container)
        fontColorHex = try Self.given(.fontColorHex, in: container)
        outlineEnabled = try Self.given(.outlineEnabled, in: container)
        outlineColorHex = try Self.given(.outlineColorHex, in: container)
    }

    /// The setting `key` when it is given; unlike `decodeIfPresent`, a null is an error, not "absent".
    private static func given<Value: Decodable>(
        _ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>
    ) throws -> Value? {
        container.contains(key) ? try container.decode(Value.self, forKey: key) : nil
    }

    /// The whole-number setting `key` when it is given. Read as a number first: the decoder refuses
    /// `1920.5` as an Int with an error that names no key, so the refusal could not say which setting.
    private static func givenWhole(_ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>) throws -> Int? {
        guard let number: Double = try given(key, in: container) else { return nil }
        guard let whole = Int(exactly: number) else {
            throw DecodingError.typeMismatch(Int.self, .init(
                codingPath: container.codingPath + [key], debugDescription: "\(number) is not a whole number"))
        }
        return whole
    }
}
