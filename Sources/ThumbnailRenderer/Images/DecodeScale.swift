extension ImageHeader {
    /// The stored pixels a decode at 1/`denominator` of the size gives: each side divided and rounded up,
    /// as libjpeg does. A PNG decodes whole.
    func decodedSize(scaledDownBy denominator: Int) -> (width: Int, height: Int) {
        let scale = format == .jpeg ? denominator : 1
        return ((width + scale - 1) / scale, (height + scale - 1) / scale)
    }
}
