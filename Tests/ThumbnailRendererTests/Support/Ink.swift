@testable import ThumbnailRenderer

/// Where the text inked a thumbnail drawn on ``TestImages/plain``: every pixel not exactly the plain
/// colour, however faint (the outline's outermost pixels included).
struct Ink {
    let width: Int
    let height: Int
    private let inked: [Bool]

    init(_ thumbnail: Thumbnail) {
        let plain = TestImages.plainColor
        let background = GDColor(red: Int(plain.red), green: Int(plain.green), blue: Int(plain.blue))
        (width, height) = (thumbnail.width, thumbnail.height)
        var inked: [Bool] = []
        inked.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width { inked.append(thumbnail.image.pixel(x, y) != background) }
        }
        self.inked = inked
    }

    subscript(x: Int, y: Int) -> Bool { inked[y * width + x] }

    /// The first and last columns and rows with ink, all inked or not.
    struct Box: Equatable {
        var left: Int
        var top: Int
        var right: Int
        var bottom: Int

        var width: Int { right - left + 1 }
        var height: Int { bottom - top + 1 }
    }

    /// Where the ink is; nil when there is none.
    var bounds: Box? {
        let rows = bands
        guard let first = rows.first, let last = rows.last else { return nil }
        return Box(left: rows.map(\.left).min()!, top: first.top, right: rows.map(\.right).max()!, bottom: last.bottom)
    }

    /// Runs of rows with ink, split by rows without: one a line of text when the lines do not touch, each
    /// with its first and last inked columns.
    var bands: [(top: Int, bottom: Int, left: Int, right: Int)] {
        var bands: [(top: Int, bottom: Int, left: Int, right: Int)] = []
        var open = false
        for y in 0..<height {
            let columns = (0..<width).filter { self[$0, y] }
            guard let left = columns.first, let right = columns.last else {
                open = false
                continue
            }
            if open, let band = bands.popLast() {
                bands.append((band.top, y, min(band.left, left), max(band.right, right)))
            } else {
                bands.append((y, y, left, right))
            }
            open = true
        }
        return bands
    }
}
