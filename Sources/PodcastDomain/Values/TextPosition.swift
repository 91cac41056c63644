/// The seven places people pick for the thumbnail's text (DOMAIN.md). Settings keep the position as two
/// fractions of the canvas, so each preset is a pair of them: 0, 0.5 or 1 across and down.
public enum TextPosition: String, Hashable, Sendable, CaseIterable {
    case topLeft, topCenter, topRight
    case center
    case bottomLeft, bottomCenter, bottomRight

    /// Across: 0 left, 0.5 centre, 1 right.
    public var x: Double {
        switch self {
        case .topLeft, .bottomLeft: 0
        case .topCenter, .center, .bottomCenter: 0.5
        case .topRight, .bottomRight: 1
        }
    }

    /// Down: 0 top, 0.5 centre, 1 bottom.
    public var y: Double {
        switch self {
        case .topLeft, .topCenter, .topRight: 0
        case .center: 0.5
        case .bottomLeft, .bottomCenter, .bottomRight: 1
        }
    }
}

extension ThumbnailSettings {
    /// The preset the position fractions make, if they make one.
    public var textPosition: TextPosition? {
        TextPosition.allCases.first { $0.x == textPositionX && $0.y == textPositionY }
    }

    /// Sets both position fractions to `position`'s.
    public mutating func placeText(at position: TextPosition) {
        textPositionX = position.x
        textPositionY = position.y
    }
}

extension ThumbnailSettings {
    /// The preset the overlay's position fractions make, if they make one.
    public var overlayPosition: TextPosition? {
        TextPosition.allCases.first { $0.x == overlayPositionX && $0.y == overlayPositionY }
    }

    /// Sets both of the overlay's position fractions to `position`'s.
    public mutating func placeOverlay(at position: TextPosition) {
        overlayPositionX = position.x
        overlayPositionY = position.y
    }
}
