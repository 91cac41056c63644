/// Pixels as rows of 8-bit red, green, blue and alpha, for code that makes or checks images without
/// libgd: the tests' goldens and the benchmark's generated backgrounds.
package struct PixelBuffer: Hashable, Sendable {
    package let width: Int
    package let height: Int
    /// `width * height * 4` bytes, row by row from the top.
    package var rgba: [UInt8]

    package init(width: Int, height: Int, rgba: [UInt8]) {
        precondition(rgba.count == width * height * 4, "\(rgba.count) bytes for \(width) x \(height) pixels")
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// An image whose pixel in column `x` of row `y` is `color(x, y)`: red, green, blue and alpha.
    package init(width: Int, height: Int, color: (_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8)) {
        var rgba: [UInt8] = []
        rgba.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let (red, green, blue, alpha) = color(x, y)
                rgba += [red, green, blue, alpha]
            }
        }
        self.init(width: width, height: height, rgba: rgba)
    }

    /// Decodes a PNG or JPEG, the right way up (libgd keeps 7 bits of alpha; 255 and 0 come back exact).
    package init(decoding bytes: [UInt8]) throws(ImageError) {
        self.init(try GDImage.decoded(bytes))
    }

    /// The pixels of a libgd image.
    init(_ image: GDImage) {
        var rgba: [UInt8] = []
        rgba.reserveCapacity(image.width * image.height * 4)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image.pixel(x, y)
                let opacity = UInt8((pixel.coverage * 255 + 63) / 127)
                rgba += [pixel.red, pixel.green, pixel.blue, opacity]
            }
        }
        self.init(width: image.width, height: image.height, rgba: rgba)
    }

    /// Encodes the pixels; a PNG keeps the alpha channel when some pixel is not opaque.
    package func encoded(as format: ImageFormat) throws(ThumbnailError) -> [UInt8] {
        guard let image = GDImage(width: width, height: height) else { throw .outOfMemory(width: width, height: height) }
        var index = 0
        for y in 0..<height {
            for x in 0..<width {
                let alpha = GDColor.transparent - Int32(rgba[index + 3] >> 1)
                image.set(GDColor(red: Int(rgba[index]), green: Int(rgba[index + 1]), blue: Int(rgba[index + 2]), alpha: alpha), x, y)
                index += 4
            }
        }
        guard let bytes = image.encoded(as: format, alpha: !image.isOpaque) else { throw .outOfMemory(width: width, height: height) }
        return bytes
    }
}
