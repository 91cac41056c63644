import CoreValues
import Crypto
import PodcastDomain

/// The sha256 of everything a thumbnail's pixels depend on: equal digests mean equal rendered bytes, so a
/// render may be skipped when a thumbnail with the same digest exists.
///
/// What is hashed is ``canonicalEncoding(background:overlay:settings:text:font:)``: the renderer's
/// version, the images and the font by their sha256 and size, every setting but the font's name (the
/// font counts by its bytes), and the text. The episode's title and number are not drawn, so they count
/// only through the text. ``ThumbnailInputs`` carries the same inputs by value (without the font's
/// bytes), which is what the domain compares to flag a thumbnail as outdated.
public struct ThumbnailInputDigest: Hashable, Sendable, CustomStringConvertible {
    /// 64 lowercase hex digits.
    public let sha256: String

    public init(background: BlobRef, overlay: BlobRef?, settings: ThumbnailSettings, text: String, font: BlobRef) {
        let encoding = Self.canonicalEncoding(
            background: background, overlay: overlay, settings: settings, text: text, font: font)
        sha256 = SHA256.hash(data: encoding).lowercaseHex
    }

    /// The digest of what the domain records for a render, drawn in `font`.
    public init(inputs: ThumbnailInputs, font: ThumbnailFont) {
        self.init(
            background: inputs.background.blob, overlay: inputs.overlay?.blob, settings: inputs.settings,
            text: inputs.text, font: font.identity)
    }

    public var description: String { sha256 }

    /// One `name value` line per input, in a fixed order, in UTF-8. Numbers are written as Swift writes
    /// them (the shortest form that reads back exactly, -0 as 0); the text comes last, after its length in
    /// bytes, so that no text can pass for other lines. Change it only with ``ThumbnailRenderer/version``.
    static func canonicalEncoding(
        background: BlobRef, overlay: BlobRef?, settings: ThumbnailSettings, text: String, font: BlobRef
    ) -> [UInt8] {
        func blob(_ ref: BlobRef?) -> String { ref.map { "\($0.sha256) \($0.byteCount)" } ?? "none" }
        func number(_ value: Double) -> String { "\(value == 0 ? 0 : value)" }
        let lines = [
            "episodic-thumbnail-inputs \(ThumbnailRenderer.version)",
            "background \(blob(background))",
            "overlay \(blob(overlay))",
            "font \(blob(font))",
            "fontSize \(number(settings.fontSize))",
            "textPositionX \(number(settings.textPositionX))",
            "textPositionY \(number(settings.textPositionY))",
            "horizontalPadding \(number(settings.horizontalPadding))",
            "verticalPadding \(number(settings.verticalPadding))",
            "canvasWidth \(settings.canvasWidth)",
            "canvasHeight \(settings.canvasHeight)",
            "backgroundScaling \(settings.backgroundScaling.rawValue)",
            "fontColorHex \(settings.fontColorHex.rawValue)",
            "outlineEnabled \(settings.outlineEnabled)",
            "outlineColorHex \(settings.outlineColorHex.rawValue)",
            "textFit \(settings.textFit.rawValue)",
            "overlayPlacement \(settings.overlayPlacement.rawValue)",
            "overlayScale \(number(settings.overlayScale))",
            "overlayPositionX \(number(settings.overlayPositionX))",
            "overlayPositionY \(number(settings.overlayPositionY))",
            "text \(text.utf8.count) \(text)",
        ]
        return Array(lines.joined(separator: "\n").utf8)
    }
}
