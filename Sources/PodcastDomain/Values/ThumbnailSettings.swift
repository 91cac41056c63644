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
    /// How the text is made to fit inside the padded area.
    public var textFit: TextFit
    /// How the overlay is sized and placed.
    public var overlayPlacement: OverlayPlacement
    /// With ``OverlayPlacement/original``: the overlay's size as a multiple of its own pixels, 0.05 to 10.
    public var overlayScale: Double
    /// With ``OverlayPlacement/original``: where the overlay goes, as the text's position does (fractions
    /// of the canvas, 0 to 1, moved in to keep clear of the padding).
    public var overlayPositionX: Double
    public var overlayPositionY: Double

    public init(
        fontName: String? = nil, fontSize: Double = 72, textPositionX: Double = 0.5, textPositionY: Double = 0.5,
        horizontalPadding: Double = 40, verticalPadding: Double = 40, canvasWidth: Int = 1920, canvasHeight: Int = 1080,
        backgroundScaling: BackgroundScaling = .aspectFill, fontColorHex: HexColor = .white, outlineEnabled: Bool = true,
        outlineColorHex: HexColor = .black, textFit: TextFit = .shrink, overlayPlacement: OverlayPlacement = .fit,
        overlayScale: Double = 1, overlayPositionX: Double = 0.5, overlayPositionY: Double = 0.5
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
        self.textFit = textFit
        self.overlayPlacement = overlayPlacement
        self.overlayScale = overlayScale
        self.overlayPositionX = overlayPositionX
        self.overlayPositionY = overlayPositionY
    }

    /// The reference app's defaults (72 pt white text with a black outline, centred on 1920 x 1080), with
    /// text shrunk to fit and the overlay drawn whole, as large as the canvas takes it (a logo of another
    /// shape is neither stretched nor cut; `fill` asks for that).
    public static let defaults = ThumbnailSettings()

    /// Settings as events written before ``textFit`` and the overlay's placement existed meant them: text
    /// drawn at its size whatever the width, overlays filling the canvas. Upcasters fill these in.
    public static let beforeFitting = (textFit: TextFit.none, overlayPlacement: OverlayPlacement.fill, overlayScale: 1.0,
        overlayPositionX: 0.5, overlayPositionY: 0.5)

    /// Allowed ranges, as DOMAIN.md gives them.
    public static let fontSizes: ClosedRange<Double> = 12...200
    public static let positions: ClosedRange<Double> = 0...1
    public static let paddings: ClosedRange<Double> = 0...200
    public static let canvasSides: ClosedRange<Int> = 16...8192
    public static let overlayScales: ClosedRange<Double> = 0.05...10
    /// The smallest size ``TextFit/shrink`` goes down to, in points: the smallest ``fontSizes``.
    public static let smallestFittedFontSize = fontSizes.lowerBound
    /// The most lines ``TextFit/shrink`` and ``TextFit/wrap`` break the text into.
    public static let mostFittedLines = 3

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

/// How the thumbnail's text is made to fit inside the padded area. Line breaks in the text are kept in
/// every mode.
public enum TextFit: String, Hashable, Sendable, Codable, CaseIterable {
    /// Wrap at spaces onto as many lines as needed (at most ``ThumbnailSettings/mostFittedLines``), then
    /// reduce the size until the block fits, down to ``ThumbnailSettings/smallestFittedFontSize``.
    case shrink
    /// Wrap at spaces, keep the size; refuse to render when the block cannot fit.
    case wrap
    /// Draw the lines at their size, wherever they reach; what falls off the canvas is cut.
    case none
}

/// How the overlay image is drawn over the background.
public enum OverlayPlacement: String, Hashable, Sendable, Codable, CaseIterable {
    /// Cover the whole canvas, cropping what overflows (centred).
    case fill
    /// Fit inside the canvas, whole, centred.
    case fit
    /// At its own pixel size times ``ThumbnailSettings/overlayScale``, at the overlay's position, inside
    /// the padding.
    case original
}
