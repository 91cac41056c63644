import CGD

extension GDImage {
    /// Decodes a PNG or JPEG whose header ``ImageProbe`` accepts.
    convenience init(decoding bytes: [UInt8]) throws(ImageError) {
        try self.init(decoding: bytes, header: ImageProbe.header(bytes))
    }

    /// Decodes `bytes`, whose header is `header`; its size must come out as the header says.
    convenience init(decoding bytes: [UInt8], header: ImageHeader) throws(ImageError) {
        let pointer = bytes.withUnsafeBytes { buffer in
            let data = UnsafeMutableRawPointer(mutating: buffer.baseAddress)  // libgd only reads it
            return switch header.format {
            case .png: LibGD.gd.imageCreateFromPngPtr!(Int32(buffer.count), data)
            case .jpeg: LibGD.gd.imageCreateFromJpegPtr!(Int32(buffer.count), data)
            }
        }
        guard let pointer else { throw .damaged(header.format) }
        self.init(taking: pointer)
        guard width == header.width, height == header.height else { throw .damaged(header.format) }
    }
}
