extension GDImage {
    /// This image as `orientation` says to show it: mirrored and turned the right way up, its sides swapped
    /// for the last four orientations. Itself when it is already upright; nil when libgd cannot allocate
    /// the turned copy.
    func turnedUpright(from orientation: ExifOrientation) -> GDImage? {
        guard orientation != .up else { return self }
        let (shownWidth, shownHeight) = orientation.swapsSides ? (height, width) : (width, height)
        guard let shown = GDImage(width: shownWidth, height: shownHeight) else { return nil }
        let source = orientation.storedPixel(width: width, height: height)
        let stored = pointer.pointee.tpixels!, rows = shown.pointer.pointee.tpixels!
        for y in 0..<shownHeight {
            let row = rows[y]!
            var storedX = source.x.origin + source.x.down * y, storedY = source.y.origin + source.y.down * y
            for x in 0..<shownWidth {
                row[x] = stored[storedY]![storedX]
                storedX += source.x.across
                storedY += source.y.across
            }
        }
        return shown
    }
}

extension ExifOrientation {
    /// One coordinate of the stored pixel shown at column x of row y: `origin + across * x + down * y`.
    fileprivate struct Axis {
        let origin: Int
        let across: Int
        let down: Int
    }

    /// Where the pixel shown at each place comes from in a stored image of `width` x `height`.
    fileprivate func storedPixel(width: Int, height: Int) -> (x: Axis, y: Axis) {
        let right = width - 1, bottom = height - 1
        return switch self {
        case .up: (Axis(origin: 0, across: 1, down: 0), Axis(origin: 0, across: 0, down: 1))
        case .mirrored: (Axis(origin: right, across: -1, down: 0), Axis(origin: 0, across: 0, down: 1))
        case .turnedHalf: (Axis(origin: right, across: -1, down: 0), Axis(origin: bottom, across: 0, down: -1))
        case .mirroredTurnedHalf: (Axis(origin: 0, across: 1, down: 0), Axis(origin: bottom, across: 0, down: -1))
        case .mirroredTurnedThreeQuarters: (Axis(origin: 0, across: 0, down: 1), Axis(origin: 0, across: 1, down: 0))
        case .turnedQuarter: (Axis(origin: 0, across: 0, down: 1), Axis(origin: bottom, across: -1, down: 0))
        case .mirroredTurnedQuarter: (Axis(origin: right, across: 0, down: -1), Axis(origin: bottom, across: -1, down: 0))
        case .turnedThreeQuarters: (Axis(origin: right, across: 0, down: -1), Axis(origin: 0, across: 1, down: 0))
        }
    }
}
