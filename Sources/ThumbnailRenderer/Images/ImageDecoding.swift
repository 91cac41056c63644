import CGD

extension GDImage {
    /// Decodes a PNG or JPEG whose header ``ImageProbe`` accepts, whole and the right way up.
    static func decoded(_ bytes: [UInt8]) throws(ImageError) -> GDImage {
        try decoded(bytes, header: ImageProbe.header(bytes))
    }

    /// Decodes `bytes`, whose header is `header`, then turns it the right way up. A JPEG may be decoded at
    /// 1/`denominator` of its size (see ``ImageHeader/decodeDenominator(for:)``); a PNG is decoded whole.
    ///
    /// The stored pixels must come out at the size the header says (see
    /// ``ImageHeader/decodedSize(scaledDownBy:)``). A failure to allocate them counts as damage, as it does
    /// in libgd's decoders.
    static func decoded(
        _ bytes: [UInt8], header: ImageHeader, scaledDownBy denominator: Int = 1
    ) throws(ImageError) -> GDImage {
        let size = header.decodedSize(scaledDownBy: denominator)
        let stored: GDImage? = switch header.format {
        case .png: decodedPNG(bytes)
        case .jpeg: decodedJPEG(bytes, scaledDownBy: denominator, width: size.width, height: size.height)
        }
        guard let stored, stored.width == size.width, stored.height == size.height,
            let upright = stored.turnedUpright(from: header.orientation)
        else { throw .damaged(header.format) }
        return upright
    }

    /// libgd's PNG decoder; nil when it fails.
    private static func decodedPNG(_ bytes: [UInt8]) -> GDImage? {
        let pointer = bytes.withUnsafeBytes { buffer in
            let data = UnsafeMutableRawPointer(mutating: buffer.baseAddress)  // libgd only reads it
            return LibGD.gd.imageCreateFromPngPtr!(Int32(buffer.count), data)
        }
        return pointer.map(GDImage.init(taking:))
    }
}
