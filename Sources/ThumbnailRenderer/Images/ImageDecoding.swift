import CGD

extension GDImage {
    /// Decodes a PNG or JPEG whose header ``ImageProbe`` accepts, the right way up.
    static func decoded(_ bytes: [UInt8]) throws(ImageError) -> GDImage {
        try decoded(bytes, header: ImageProbe.header(bytes))
    }

    /// Decodes `bytes`, whose header is `header`, then turns it the right way up. The stored pixels must
    /// come out at the size the header says. A failure to allocate the pixels counts as damage, as it
    /// does in libgd's decoders.
    static func decoded(_ bytes: [UInt8], header: ImageHeader) throws(ImageError) -> GDImage {
        let pointer = bytes.withUnsafeBytes { buffer in
            let data = UnsafeMutableRawPointer(mutating: buffer.baseAddress)  // libgd only reads it
            return switch header.format {
            case .png: LibGD.gd.imageCreateFromPngPtr!(Int32(buffer.count), data)
            case .jpeg: LibGD.gd.imageCreateFromJpegPtr!(Int32(buffer.count), data)
            }
        }
        guard let pointer else { throw .damaged(header.format) }
        let stored = GDImage(taking: pointer)
        guard stored.width == header.width, stored.height == header.height,
            let upright = stored.turnedUpright(from: header.orientation)
        else { throw .damaged(header.format) }
        return upright
    }
}
