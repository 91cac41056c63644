/// The outline around the text: the ink grown by a disc.
enum Outline {
    /// Pixels: about 4 % of the font size (3 at the default 72 points), at least 1.
    static func radius(fontSize: Double) -> Int { max(1, Int((fontSize / 24).rounded())) }

    /// The offsets within `radius` + ½ of a pixel, which keeps small discs round rather than cross-shaped.
    static func disc(radius: Int) -> [(x: Int, y: Int)] {
        (-radius...radius).flatMap { y in
            (-radius...radius).filter { x in x * x + y * y <= radius * radius + radius }.map { x in (x, y) }
        }
    }
}
