/// How the lines of the text line up with each other: towards the side of the canvas the text is placed
/// at. Each line's ink is aligned, so that the edges people see line up.
enum LineAlignment: Hashable {
    case left, centre, right

    /// Left in the left third of the canvas (the presets' 0), right in the right third (1), centred
    /// between (0.5).
    init(positionX: Double) {
        self = positionX < 1.0 / 3 ? .left : positionX > 2.0 / 3 ? .right : .centre
    }

    /// Pixels from the left of a block `blockWidth` wide to a line `width` wide in it (centred lines
    /// rounded towards the left).
    func offset(of width: Int, in blockWidth: Int) -> Int {
        switch self {
        case .left: 0
        case .centre: (blockWidth - width) / 2
        case .right: blockWidth - width
        }
    }
}
