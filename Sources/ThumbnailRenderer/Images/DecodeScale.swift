extension ImageHeader {
    /// How many times smaller than stored this image can be decoded for `placement` (in the pixels of the
    /// picture as seen, whole): the largest of libjpeg's 2, 4 and 8 that still leaves the part shown at
    /// least a pixel for each canvas pixel it is drawn into, so that nothing drawn loses detail; else 1.
    /// PNGs are always decoded whole.
    func decodeDenominator(for placement: Placement) -> Int {
        guard format == .jpeg else { return 1 }
        let (from, to) = (placement.from, placement.to)
        return [8, 4, 2].first { from.width >= to.width * $0 && from.height >= to.height * $0 } ?? 1
    }

    /// The stored pixels a decode at 1/`denominator` of the size gives: each side divided and rounded up,
    /// as libjpeg does. A PNG decodes whole.
    func decodedSize(scaledDownBy denominator: Int) -> (width: Int, height: Int) {
        let scale = format == .jpeg ? denominator : 1
        return ((width + scale - 1) / scale, (height + scale - 1) / scale)
    }
}
