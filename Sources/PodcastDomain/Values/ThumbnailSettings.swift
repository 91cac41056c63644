/// How a thumbnail is drawn. A podcast holds defaults; each episode gets a copy when it is created and
/// keeps its own from then on (later changes to the podcast's defaults do not reach it).
public struct ThumbnailSettings: Hashable, Sendable, Codable {
    /// The font's name; nil means the renderer's default bold font.
    public var fontName: String?
    /// Points, 12 to 200.
    public var fontSize: Double
    /// Where the text's centre goes, as a fraction of the canvas, 0 to 1 (0.5, 0.5 is the centre), moved
    /// in to keep clear of the padding: 0 and 1 put the text against it. ``TextPosition`` names the presets.
    public var textPositionX: Double
    public var textPositionY: Double
    /// Pixels kept clear at the left and right (horizontal) and top and bottom (vertical), 0 to 200.
    public var horizontalPadding: Double
    public var verticalPadding: Double
    /// Pixels, each side 16 to 8192.
    public var canvasWidth: Int
    public var canvasHeight: Int
    public var backgroundScaling: BackgroundScaling
    public var fontColorHex: HexColor
    public var outlineEnabled: Bool
    public var outlineColorHex: HexColor

    public init(
        fontName: String? = nil, fontSize: Double = 72, textPositionX: Double = 0.5, textPositionY: Double = 0.5,
        horizontalPadding: Double = 40, verticalPadding: Double = 40, canvasWidth: Int = 1920, canvasHeight: Int = 1080,
        backgroundScaling: BackgroundScaling = .aspectFill, fontColorHex: HexColor = .white, outlineEnabled: Bool = true,
        outlineColorHex: HexColor = .black
    ) {
        self.fontName = fontName
        self.fontSize = fontSize
        self.textPositionX = textPositionX
        self.textPositionY = textPositionY
        self.horizontalPadding = horizontalPadding
        self.verticalPadding = verticalPadding
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.backgroundScaling = backgroundScaling
        self.fontColorHex = fontColorHex
        self.outlineEnabled = outlineEnabled
        self.outlineColorHex = outlineColorHex
    }

    /// The reference app's defaults: 72 pt white text with a black outline, centred on 1920 x 1080.
    public static let defaults = ThumbnailSettings()

    /// Allowed ranges, as DOMAIN.md gives them.
    public static let fontSizes: ClosedRange<Double> = 12...200
    public static let positions: ClosedRange<Double> = 0...1
    public static let paddings: ClosedRange<Double> = 0...200
    public static let canvasSides: ClosedRange<Int> = 16...8192

    /// The canvas presets a user picks from; any other size inside ``canvasSides`` is "custom".
    public static let canvasPresets: [(width: Int, height: Int)] = [(1920, 1080), (1280, 720), (3840, 2160), (1080, 1080)]

    /// These settings as a command would store them (the font name trimmed), or the first rule they break.
    public func validated() throws(DomainError) -> ThumbnailSettings { try Rules.settings(self) }
}

/// How the background image fills the canvas. Always centred.
public enum BackgroundScaling: String, Hashable, Sendable, Codable, CaseIterable {
    /// Cover the canvas, cropping what overflows.
    case aspectFill
    /// Fit inside the canvas, letterboxing the rest.
    case aspectFit
    /// Fill the canvas exactly, distorting the image.
    case stretch
}
