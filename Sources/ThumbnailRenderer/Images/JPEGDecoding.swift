import CJPEG

extension GDImage {
    /// Decodes a JPEG at 1/`denominator` of its stored size (1, 2, 4 or 8), which must come out as
    /// `width` x `height`: libjpeg scales while decoding, with a smaller inverse DCT for each 8 x 8 block,
    /// rather than decoding the whole picture to shrink it afterwards. Nil when the JPEG is damaged,
    /// decodes to another size, or libgd cannot allocate the pixels.
    static func decodedJPEG(_ bytes: [UInt8], scaledDownBy denominator: Int, width: Int, height: Int) -> GDImage? {
        LibJPEG.opened
        guard let image = GDImage(width: width, height: height) else { return nil }
        let decoded = bytes.withUnsafeBufferPointer { buffer in
            cjpeg_decode(
                buffer.baseAddress, buffer.count, Int32(denominator), image.pointer.pointee.tpixels, Int32(width), Int32(height))
        }
        return decoded == 1 ? image : nil
    }
}
