import PodcastDomain

extension ThumbnailSettings {
    /// Where a box of `width` x `height` pixels (the text with its outline) goes on the canvas: its top-left
    /// corner, at the text's position (see ``origin(ofBox:_:at:_:)``).
    func textOrigin(width: Int, height: Int) -> (x: Int, y: Int) {
        origin(ofBox: width, height, at: textPositionX, textPositionY)
    }
}
