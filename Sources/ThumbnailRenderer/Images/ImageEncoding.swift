import CGD

extension GDImage {
    /// JPEG quality, 0 to 100: DOMAIN.md's 0.8.
    static let jpegQuality: Int32 = 80
    /// zlib's level, 0 to 9: the fastest. Photographs barely compress further: the benchmark's stored
    /// thumbnail is 757 KB in 73 ms at level 1, 736 KB in 196 ms at zlib's default, 6.
    static let pngCompression: Int32 = 1

    /// The image as PNG or JPEG; a PNG keeps the alpha channel when `alpha` is set. Nil when libgd
    /// cannot allocate the output.
    func encoded(as format: ImageFormat, alpha: Bool = false) -> [UInt8]? {
        var size: Int32 = 0
        let output: UnsafeMutableRawPointer?
        switch format {
        case .png:
            LibGD.gd.imageSaveAlpha!(pointer, alpha ? 1 : 0)
            output = LibGD.gd.imagePngPtrEx!(pointer, &size, Self.pngCompression)
        case .jpeg:
            output = LibGD.gd.imageJpegPtr!(pointer, &size, Self.jpegQuality)
        }
        guard let output else { return nil }
        defer { LibGD.gd.free!(output) }
        return Array(UnsafeRawBufferPointer(start: output, count: Int(size)))
    }
}
