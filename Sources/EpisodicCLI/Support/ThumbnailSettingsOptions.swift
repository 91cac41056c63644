import ArgumentParser
import Episodic

/// Changes to thumbnail settings, as options: each given option replaces one setting, the others stay.
/// Numbers are checked against the domain's ranges as they are parsed (exit 64); the domain checks again.
struct ThumbnailSettingsOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The font's name (an imported font).", valueName: "name"))
    var font: String?

    @Flag(help: "Use the renderer's default bold font.")
    var defaultFont = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Text size in points, 12 to 200.", valueName: "points"),
        transform: NumberArgument.decimal(ThumbnailSettings.fontSizes, "points"))
    var fontSize: Double?

    @Option(help: ArgumentHelp("Where the text goes.", valueName: "position"))
    var position: TextPosition?

    @Option(parsing: .unconditional, help: ArgumentHelp("The text's centre across the canvas, 0 to 1.", valueName: "fraction"),
        transform: NumberArgument.decimal(ThumbnailSettings.positions, "(a fraction of the canvas)"))
    var textX: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("The text's centre down the canvas, 0 to 1.", valueName: "fraction"),
        transform: NumberArgument.decimal(ThumbnailSettings.positions, "(a fraction of the canvas)"))
    var textY: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Pixels kept clear left and right, 0 to 200.", valueName: "pixels"),
        transform: NumberArgument.decimal(ThumbnailSettings.paddings, "pixels"))
    var horizontalPadding: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Pixels kept clear top and bottom, 0 to 200.", valueName: "pixels"),
        transform: NumberArgument.decimal(ThumbnailSettings.paddings, "pixels"))
    var verticalPadding: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Canvas size, e.g. 1920x1080 (each side 16 to 8192).", valueName: "WxH"), transform: CanvasSize.parse)
    var canvas: CanvasSize?

    @Option(help: ArgumentHelp("How the background fills the canvas: fill, fit or stretch.", valueName: "mode"))
    var scaling: Scaling?

    @Option(help: ArgumentHelp("Text colour, #RRGGBB.", valueName: "colour"))
    var color: String?

    @Flag(inversion: .prefixedNo, help: "Draw an outline around the text.")
    var outline: Bool?

    @Option(help: ArgumentHelp("Outline colour, #RRGGBB.", valueName: "colour"))
    var outlineColor: String?

    @Option(help: ArgumentHelp(
        "How the text fits the padded area: shrink (wrap onto up to 3 lines, then make it smaller, down to 12 pt), "
            + "wrap (wrap at the size set; refuse what does not fit), none (draw at the size set; the canvas cuts it).",
        valueName: "mode"))
    var fit: TextFit?

    @Option(help: ArgumentHelp(
        "How the overlay is drawn: fit (whole, centred; the default), fill (cover the canvas, cropped), "
            + "original (its own size times --overlay-scale, at --overlay-position).",
        valueName: "placement"))
    var overlayPlacement: OverlayPlacement?

    @Option(parsing: .unconditional, help: ArgumentHelp("With --overlay-placement original: the overlay's size as a multiple of its pixels, 0.05 to 10.",
        valueName: "factor"), transform: NumberArgument.decimal(ThumbnailSettings.overlayScales, "(times the overlay's pixels)"))
    var overlayScale: Double?

    @Option(help: ArgumentHelp(
        "With --overlay-placement original: where the overlay goes, inside the padding.", valueName: "position"))
    var overlayPosition: TextPosition?

    /// The settings the options change; the others stay as they are when the command runs.
    func patch() throws -> ThumbnailSettingsPatch {
        var patch = ThumbnailSettingsPatch()
        if defaultFont { patch.fontName = .some(nil) }
        if let font { patch.fontName = font }
        patch.fontSize = fontSize
        patch.textPositionX = textX ?? position?.x
        patch.textPositionY = textY ?? position?.y
        patch.horizontalPadding = horizontalPadding
        patch.verticalPadding = verticalPadding
        patch.canvasWidth = canvas?.width
        patch.canvasHeight = canvas?.height
        patch.backgroundScaling = scaling?.mode
        patch.fontColorHex = try color.map { try Self.color($0, option: "--color") }
        patch.outlineEnabled = outline
        patch.outlineColorHex = try outlineColor.map { try Self.color($0, option: "--outline-color") }
        patch.textFit = fit
        patch.overlayPlacement = overlayPlacement
        patch.overlayScale = overlayScale
        patch.overlayPositionX = overlayPosition?.x
        patch.overlayPositionY = overlayPosition?.y
        return patch
    }

    func validate() throws {
        if font != nil && defaultFont { throw ValidationError("--font and --default-font cannot be given together.") }
        if position != nil && (textX != nil || textY != nil) {
            throw ValidationError("--position sets --text-x and --text-y; give one or the other.")
        }
    }

    private static func color(_ text: String, option: String) throws -> HexColor {
        guard let color = HexColor(rawValue: text) else {
            throw ValidationError("\(option) \(text) is not a colour. Write it as #RRGGBB, e.g. #FFCC00.")
        }
        return color
    }
}

/// The seven presets as the command line writes them: `top-left`, `top`, `top-right`, `center`,
/// `bottom-left`, `bottom`, `bottom-right`.
extension TextPosition: ExpressibleByArgument {
    public init?(argument: String) {
        guard let position = Self.allCases.first(where: { $0.argument == argument }) else { return nil }
        self = position
    }

    public var defaultValueDescription: String { argument }

    public static var allValueStrings: [String] { allCases.map(\.argument) }

    /// None: the option's help names the values, and a list of them without descriptions would only
    /// repeat them (as `top-left -`, the dash before an empty description).
    public static var allValueDescriptions: [String: String] { [:] }

    var argument: String {
        switch self {
        case .topLeft: "top-left"
        case .topCenter: "top"
        case .topRight: "top-right"
        case .center: "center"
        case .bottomLeft: "bottom-left"
        case .bottomCenter: "bottom"
        case .bottomRight: "bottom-right"
        }
    }
}

enum Scaling: String, ExpressibleByArgument, CaseIterable {
    case fill, fit, stretch

    var mode: BackgroundScaling {
        switch self {
        case .fill: .aspectFill
        case .fit: .aspectFit
        case .stretch: .stretch
        }
    }
}

struct CanvasSize {
    var width: Int
    var height: Int

    /// `1920x1080`: two whole numbers in the domain's range of canvas sides.
    static func parse(_ argument: String) throws -> CanvasSize {
        let range = ThumbnailSettings.canvasSides
        let sides = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard sides.count == 2, let width = sides[0], let height = sides[1], range.contains(width), range.contains(height) else {
            throw ValidationError("give the width and height as WxH, e.g. 1920x1080, each a whole number from "
                + "\(range.lowerBound) to \(range.upperBound) pixels")
        }
        return CanvasSize(width: width, height: height)
    }
}

extension TextFit: ExpressibleByArgument {}

extension OverlayPlacement: ExpressibleByArgument {}
