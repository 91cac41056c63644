extension TextMask {
    /// The layout's lines drawn and stacked into one mask: baselines ``TextLayout/lineSpacing(size:)``
    /// apart, each line's ink placed across as `alignment` says within the widest. Where lines overlap
    /// (a descender over the next line's accent), the more covered pixel wins. Nil when no line inks.
    init?(_ layout: TextLayout, font: ThumbnailFont, alignment: LineAlignment) throws(ThumbnailError) {
        let spacing = TextLayout.lineSpacing(size: layout.size)
        var lines: [(ink: TextMask, baseline: Int)] = []
        for (index, line) in layout.lines.enumerated() where !line.isEmpty {
            if let ink = try TextMask(String(line), font: font, size: layout.size) { lines.append((ink, index * spacing)) }
        }
        guard !lines.isEmpty else { return nil }
        let top = lines.map { $0.baseline - $0.ink.baseline }.min()!
        let height = lines.map { $0.baseline - $0.ink.baseline + $0.ink.height }.max()! - top
        let width = lines.map(\.ink.width).max()!
        var coverage = [UInt8](repeating: 0, count: width * height)
        for (ink, baseline) in lines {
            let left = alignment.offset(of: ink.width, in: width), firstRow = baseline - ink.baseline - top
            for y in 0..<ink.height {
                let row = (firstRow + y) * width + left
                for x in 0..<ink.width { coverage[row + x] = max(coverage[row + x], ink[x, y]) }
            }
        }
        self.init(width: width, height: height, coverage: coverage, baseline: -top)
    }
}
