/// Where a line of words breaks to fit a width: at spaces, never inside a word.
extension MeasuredWords {
    /// The fewest lines at most `width` pixels wide at `scale` times the reference size, each taking as
    /// many words as fit (which is what makes them the fewest). Nil when a word alone is wider.
    func greedyBreaks(width: Double, scale: Double) -> [ClosedRange<Int>]? {
        var lines: [ClosedRange<Int>] = []
        var first = 0
        while first < count {
            guard self.width(first...first, scale: scale) <= width else { return nil }
            var last = first
            while last + 1 < count, self.width(first...last + 1, scale: scale) <= width { last += 1 }
            lines.append(first...last)
            first = last + 1
        }
        return lines
    }

    /// As many lines as ``greedyBreaks(width:scale:)`` makes, made as even as they can be: broken at the
    /// narrowest width that needs no more lines, so that a title does not end on one word alone.
    func balancedBreaks(width: Double, scale: Double) -> [ClosedRange<Int>]? {
        guard let greedy = greedyBreaks(width: width, scale: scale) else { return nil }
        guard greedy.count > 1 else { return greedy }
        var tooNarrow = (0..<count).map { self.width($0...$0, scale: scale) }.max()! - 1, wideEnough = width
        while wideEnough - tooNarrow > 0.5 {
            let middle = (tooNarrow + wideEnough) / 2
            if let breaks = greedyBreaks(width: middle, scale: scale), breaks.count <= greedy.count {
                wideEnough = middle
            } else {
                tooNarrow = middle
            }
        }
        return greedyBreaks(width: wideEnough, scale: scale)
    }
}
