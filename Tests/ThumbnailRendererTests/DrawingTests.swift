import Testing

@testable import ThumbnailRenderer

/// Drawing one image scaled onto another, pixel by pixel: averages of the area each pixel covers,
/// colours weighted by opacity, then blended as libgd blends.
@Suite("Drawing")
struct DrawingTests {
    /// An image whose pixels are `colors`, row by row.
    func image(_ width: Int, _ height: Int, _ colors: [GDColor]) throws -> GDImage {
        let image = try #require(GDImage(width: width, height: height))
        for (index, color) in colors.enumerated() { image.set(color, index % width, index / width) }
        return image
    }

    func draw(_ source: GDImage, into width: Int, _ height: Int, over background: GDColor = GDColor(red: 0, green: 0, blue: 0))
        throws -> [GDColor]
    {
        let target = try image(width, height, Array(repeating: background, count: width * height))
        try target.draw(source, from: source.bounds, to: target.bounds)
        return (0..<width * height).map { target.pixel($0 % width, $0 / width) }
    }

    @Test("shrunk to half, each pixel is the mean of the four it covers")
    func halves() throws {
        let source = try image(4, 2, [
            GDColor(red: 0, green: 0, blue: 0), GDColor(red: 40, green: 80, blue: 120), GDColor(red: 200, green: 0, blue: 0),
            GDColor(red: 200, green: 0, blue: 0), GDColor(red: 40, green: 80, blue: 120), GDColor(red: 0, green: 0, blue: 0),
            GDColor(red: 0, green: 0, blue: 40), GDColor(red: 0, green: 0, blue: 40),
        ])
        #expect(try draw(source, into: 2, 1) == [GDColor(red: 20, green: 40, blue: 60), GDColor(red: 100, green: 0, blue: 20)])
    }

    @Test("a flat colour stays exactly itself at any scale, up or down")
    func flat() throws {
        let teal = GDColor(red: 17, green: 130, blue: 140)
        let source = try image(7, 5, Array(repeating: teal, count: 35))
        for (width, height) in [(3, 2), (7, 5), (16, 11), (1, 1)] {
            #expect(try draw(source, into: width, height).allSatisfy { $0 == teal }, "\(width) x \(height)")
        }
    }

    @Test("a transparent pixel lends no colour to the mean, only its transparency")
    func opacityWeighted() throws {
        // Given an opaque red pixel beside a transparent green one
        let source = try image(2, 1, [GDColor(red: 255, green: 0, blue: 0), GDColor(red: 0, green: 255, blue: 0, alpha: 127)])

        // When they are averaged into one pixel over white, then it is half-transparent red over white
        let white = GDColor(red: 255, green: 255, blue: 255)
        let pixel = try #require(try draw(source, into: 1, 1, over: white).first)
        #expect(pixel.red == 255 && pixel.green == pixel.blue && (126...129).contains(pixel.green), "\(pixel)")
    }

    @Test("at the same size a translucent pixel is blended over what is beneath, as libgd blends")
    func blended() throws {
        // White at alpha 64 (of 127) over opaque black: libgd weighs the source 63 and the black 64 of 127
        let source = try image(1, 1, [GDColor(red: 255, green: 255, blue: 255, alpha: 64)])
        #expect(try draw(source, into: 1, 1) == [GDColor(red: 126, green: 126, blue: 126)])
    }
}
