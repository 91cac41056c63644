import CGD

/// A libgd true-colour image, destroyed with its owner.
///
/// Pixels are ``GDColor`` values. A new image is opaque black and blends what is drawn on it.
final class GDImage {
    let pointer: gdImagePtr

    /// Takes ownership of `pointer`, converting a palette image to true colour.
    init(taking pointer: gdImagePtr) {
        if pointer.pointee.trueColor == 0 { _ = LibGD.gd.imagePaletteToTrueColor!(pointer) }
        self.pointer = pointer
    }

    /// Nil when libgd cannot allocate the pixels.
    convenience init?(width: Int, height: Int) {
        guard let pointer = LibGD.gd.imageCreateTrueColor!(Int32(width), Int32(height)) else { return nil }
        self.init(taking: pointer)
    }

    deinit { LibGD.gd.imageDestroy!(pointer) }

    var width: Int { Int(pointer.pointee.sx) }
    var height: Int { Int(pointer.pointee.sy) }
    var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// The pixel at column `x` of row `y`, both inside the image.
    func pixel(_ x: Int, _ y: Int) -> GDColor { GDColor(rawValue: pointer.pointee.tpixels[y]![x]) }

    /// Replaces the pixel, alpha included; `x` and `y` inside the image.
    func set(_ color: GDColor, _ x: Int, _ y: Int) { pointer.pointee.tpixels[y]![x] = color.rawValue }

    /// Draws `color` over the pixel (blended by its alpha); nothing outside the image.
    func blend(_ color: GDColor, _ x: Int, _ y: Int) { LibGD.gd.imageSetPixel!(pointer, Int32(x), Int32(y), color.rawValue) }

    /// Whether drawing blends what it draws onto the pixels by its alpha (as a new image does), or
    /// replaces them, alpha included.
    var blends: Bool {
        get { pointer.pointee.alphaBlendingFlag != 0 }
        set { LibGD.gd.imageAlphaBlending!(pointer, newValue ? 1 : 0) }
    }

    /// Whether every pixel is opaque (libgd's alpha 0 of 127).
    var isOpaque: Bool {
        for y in 0..<height {
            let row = pointer.pointee.tpixels[y]!
            for x in 0..<width where row[x] & 0x7F00_0000 != 0 { return false }
        }
        return true
    }

    /// Sets every pixel to `color`, alpha included rather than blended.
    func fill(_ color: GDColor) {
        LibGD.gd.imageAlphaBlending!(pointer, 0)
        LibGD.gd.imageFilledRectangle!(pointer, 0, 0, Int32(width - 1), Int32(height - 1), color.rawValue)
        LibGD.gd.imageAlphaBlending!(pointer, 1)
    }

    /// Draws the `from` part of `image` scaled into `to`, each pixel the average of the area it covers,
    /// blended by its alpha (see `cgd_drawing.h`); both rectangles inside their images.
    func draw(_ image: GDImage, from: PixelRect, to: PixelRect) throws(ThumbnailError) {
        let drawn = cgd_draw_scaled(
            pointer, image.pointer, Int32(to.x), Int32(to.y), Int32(from.x), Int32(from.y), Int32(to.width), Int32(to.height),
            Int32(from.width), Int32(from.height))
        guard drawn == 1 else { throw .outOfMemory(width: to.width, height: to.height) }
    }
}
