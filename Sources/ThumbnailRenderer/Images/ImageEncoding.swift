import CGD
import CPNG
import Glibc

extension GDImage {
    /// JPEG quality, 0 to 100: DOMAIN.md's 0.8.
    static let jpegQuality: Int32 = 80
    /// zlib's level, 0 to 9: the fastest. Photographs barely compress further: zlib's default, 6, made
    /// the benchmark's stored thumbnail 3 % smaller in nearly three times the time.
    static let pngCompression: Int32 = 1

    /// The image as PNG or JPEG; a PNG keeps the alpha channel when `alpha` is set. Nil when the encoder
    /// cannot allocate the output.
    ///
    /// PNGs are written with libpng's fast row filters (see `cpng.h`), JPEGs by libgd.
    func encoded(as format: ImageFormat, alpha: Bool = false) -> [UInt8]? {
        switch format {
        case .png:
            LibPNG.opened
            var size = 0
            let output = cpng_encode(
                pointer.pointee.tpixels, Int32(width), Int32(height), alpha ? 1 : 0, Self.pngCompression, &size)
            guard let output else { return nil }
            defer { free(output) }
            return Array(UnsafeBufferPointer(start: output, count: size))
        case .jpeg:
            var size: Int32 = 0
            guard let output = LibGD.gd.imageJpegPtr!(pointer, &size, Self.jpegQuality) else { return nil }
            defer { LibGD.gd.free!(output) }
            return Array(UnsafeRawBufferPointer(start: output, count: Int(size)))
        }
    }
}
