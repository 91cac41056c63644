/// An image decoded for its place on the canvas, no larger than that place needs.
struct PlacedImage {
    let image: GDImage
    /// Where it is drawn, in `image`'s pixels; nil when none of it lands on the canvas.
    let placement: Placement?

    /// Decodes `bytes` (a PNG or JPEG, checked as ``ImageProbe`` checks them) for the place `place` gives
    /// a picture of its size as seen. A JPEG is decoded at the smallest scale that still has a pixel for
    /// each one drawn (see ``ImageHeader/decodeDenominator(for:)``); one placed off the canvas is decoded
    /// whole all the same, so that a damaged image is refused wherever it is placed.
    init(_ bytes: [UInt8], place: (_ width: Int, _ height: Int) -> Placement?) throws(ImageError) {
        let header = try ImageProbe.header(bytes)
        let whole = place(header.displayedWidth, header.displayedHeight)
        let denominator = whole.map(header.decodeDenominator(for:)) ?? 1
        image = try GDImage.decoded(bytes, header: header, scaledDownBy: denominator)
        placement = whole?.scaledDown(by: denominator, within: image.bounds)
    }
}

extension GDImage {
    /// Draws `placed` where it goes, blended by its alpha.
    func draw(_ placed: PlacedImage) throws(ThumbnailError) {
        guard let placement = placed.placement else { return }
        try draw(placed.image, from: placement.from, to: placement.to)
    }
}
