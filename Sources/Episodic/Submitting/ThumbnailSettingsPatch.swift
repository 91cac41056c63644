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

    private enum CodingKeys: String, CodingKey {
        case fontName, fontSize, textPositionX, textPositionY, horizontalPadding, verticalPadding, canvasWidth,
            canvasHeight, backgroundScaling, fontColorHex, outlineEnabled, outlineColorHex
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.fontName) {
            fontName = .some(try container.decodeNil(forKey: .fontName) ? nil : try container.decode(String.self, forKey: .fontName))
        }
        fontSize = try container.decodeIfPresent(Double.self, forKey: .fontSize)
        textPositionX = try container.decodeIfPresent(Double.self, forKey: .textPositionX)
        textPositionY = try container.decodeIfPresent(Double.self, forKey: .textPositionY)
        horizontalPadding = try container.decodeIfPresent(Double.self, forKey: .horizontalPadding)
        verticalPadding = try container.decodeIfPresent(Double.self, forKey: .verticalPadding)
        canvasWidth = try container.decodeIfPresent(Int.self, forKey: .canvasWidth)
        canvasHeight = try container.decodeIfPresent(Int.self, forKey: .canvasHeight)
        backgroundScaling = try container.decodeIfPresent(BackgroundScaling.self, forKey: .backgroundScaling)
        fontColorHex = try container.decodeIfPresent(HexColor.self, forKey: .fontColorHex)
        outlineEnabled = try container.decodeIfPresent(Bool.self, forKey: .outlineEnabled)
        outlineColorHex = try container.decodeIfPresent(HexColor.self, forKey: .outlineColorHex)
    }
}
