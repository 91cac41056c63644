import PodcastDomain

/// The size and line breaks that fit the text into the padded area as ``TextFit/shrink`` or
/// ``TextFit/wrap`` asks, or the ``TextMisfit`` that says why none do.
///
/// Sizes are tried on FreeType's measures of the words, scaled to each size (see ``MeasuredWords``),
/// without drawing; under shrink, a binary search over whole points finds the largest that fits. Those
/// measures are estimates, off by a pixel or two: the drawing measures the ink it draws, and when that
/// overruns the room it fits again in a room narrowed by the overrun.
struct TextFitting {
    /// Pixels kept spare beside each estimate of the ink, for FreeType's rounding of glyphs to the grid.
    static let margin = 2.0

    let settings: ThumbnailSettings
    /// The text's own lines, measured.
    let lines: [MeasuredWords]
    /// The padded area: the canvas less the padding on each side, in pixels (negative when the padding
    /// leaves none).
    let room: (width: Int, height: Int)
    /// How far a space moves the pen at the reference size, pixels.
    private let spaceAdvance: Double

    /// `lines`: the text's own lines, as ``TextLines/split(_:)`` gives them.
    init(_ lines: [Substring], font: ThumbnailFont, settings: ThumbnailSettings) throws(ThumbnailError) {
        let space = Double(try TextMask.extent(of: " ", font: font, size: MeasuredWords.referenceSize).right)
        self.lines = try lines.map { line throws(ThumbnailError) in try MeasuredWords(line, font: font, spaceAdvance: space) }
        self.settings = settings
        spaceAdvance = space
        room = (settings.canvasWidth - 2 * Int(settings.horizontalPadding.rounded()),
                settings.canvasHeight - 2 * Int(settings.verticalPadding.rounded()))
    }

    /// The layout the fit asks for, in the room made `allowance` pixels narrower and shorter than it is.
    func layout(narrowedBy allowance: (width: Int, height: Int) = (0, 0)) throws(ThumbnailError) -> TextLayout {
        let fit = settings.textFit, preferred = settings.fontSize, smallest = ThumbnailSettings.smallestFittedFontSize
        guard fit != .none else { return TextLayout(size: preferred, lines: lines.map(\.line)) }
        guard lines.count <= ThumbnailSettings.mostFittedLines else {
            throw misfit(.lines(count: lines.count), .fewerLines, at: preferred)
        }
        switch outcome(at: preferred, narrowedBy: allowance) {
        case .fits(let layout):
            return layout
        case .misfit(let problem):
            let smaller = largestFitting(below: preferred, narrowedBy: allowance)
            if fit == .shrink, let smaller { return smaller }
            if let smaller { throw misfit(problem, .smallerSize(smaller.size), at: preferred) }
            // No size fits: what keeps the smallest size from fitting says what to change.
            let problemAtSmallest = outcome(at: smallest, narrowedBy: allowance).problem ?? problem
            let remedy = remedy(for: problemAtSmallest, narrowedBy: allowance)
            throw fit == .shrink ? misfit(problemAtSmallest, remedy, at: smallest) : misfit(problem, remedy, at: preferred)
        }
    }

    private enum Outcome {
        case fits(TextLayout)
        case misfit(TextMisfit.Problem)

        var problem: TextMisfit.Problem? {
            guard case .misfit(let problem) = self else { return nil }
            return problem
        }
    }

    /// Whether the text fits at `size`: each line broken at its spaces to the room's width, the lines (at
    /// most ``ThumbnailSettings/mostFittedLines``) stacked within its height. Lines that fit are then
    /// made as even as they can be in as many lines.
    private func outcome(at size: Double, narrowedBy allowance: (width: Int, height: Int)) -> Outcome {
        let scale = size / MeasuredWords.referenceSize, reach = outlineReach(size)
        let width = Double(room.width - allowance.width) - reach - Self.margin
        let height = Double(room.height - allowance.height) - reach - Self.margin
        var greedy: [[ClosedRange<Int>]] = []
        for line in lines {
            guard let breaks = line.greedyBreaks(width: width, scale: scale) else {
                let (word, wordWidth) = widestWord(of: line, scale: scale)
                let across = wordWidth + reach + Self.margin + Double(allowance.width)
                return .misfit(.word(word, width: Int(across.rounded(.up))))
            }
            greedy.append(breaks)
        }
        let spacing = Double(TextLayout.lineSpacing(size: size))
        let laid = laidOut(greedy)
        let fitting = (0...min(laid.count, ThumbnailSettings.mostFittedLines)).last {
            inkHeight(of: laid.prefix($0), spacing: spacing, scale: scale) <= height
        } ?? 0
        guard fitting == laid.count else { return .misfit(.wrapped(needed: laid.count, fitting: fitting)) }
        let balanced = laidOut(lines.map { $0.balancedBreaks(width: width, scale: scale)! })
        let chosen = inkHeight(of: balanced[...], spacing: spacing, scale: scale) <= height ? balanced : laid
        return .fits(TextLayout(size: size, lines: chosen.map { $0.map { $0.words.text($0.span) } ?? "" }))
    }

    /// The largest whole size below `size` (and no smaller than the smallest) at which the text fits.
    private func largestFitting(below size: Double, narrowedBy allowance: (width: Int, height: Int)) -> TextLayout? {
        let sizes = Array(stride(from: ThumbnailSettings.smallestFittedFontSize, through: size.rounded(.up) - 1, by: 1))
        var found: TextLayout?, low = 0, high = sizes.count  // sizes below `low` fit; from `high` on they do not
        while low < high {
            let middle = (low + high) / 2
            if case .fits(let layout) = outcome(at: sizes[middle], narrowedBy: allowance) {
                found = layout
                low = middle + 1
            } else {
                high = middle
            }
        }
        return found
    }

    /// What would make the text fit at the smallest size, where `problem` keeps it from fitting.
    private func remedy(for problem: TextMisfit.Problem, narrowedBy allowance: (width: Int, height: Int)) -> TextMisfit.Remedy {
        switch problem {
        case .lines: .fewerLines
        case .word(let word, _): .shorterWord(word)
        case .wrapped(_, let fitting) where fitting == 0: .moreRoom
        case .wrapped(_, let fitting): .shorterText(characters: characters(fittingIn: fitting, narrowedBy: allowance))
        }
    }

    /// About how many characters fill `lineCount` lines at the smallest size, less a word's worth a line
    /// (what breaking at spaces may leave empty), rounded down to tens; nil when that is no fewer than
    /// the text has (its own line breaks, not its length, are what does not fit).
    private func characters(fittingIn lineCount: Int, narrowedBy allowance: (width: Int, height: Int)) -> Int? {
        let size = ThumbnailSettings.smallestFittedFontSize, scale = size / MeasuredWords.referenceSize
        let width = Double(room.width - allowance.width) - outlineReach(size) - Self.margin
        let characters = lines.map(\.line.count).reduce(lines.count - 1, +)
        let words = lines.map(\.count).reduce(0, +)
        let advances = lines.map { $0.count == 0 ? 0 : $0.width(0...$0.count - 1, scale: scale) }.reduce(0, +)
            + Double(lines.count - 1) * spaceAdvance * scale
        let perLine = width / (advances / Double(characters)) - Double(characters) / Double(max(words, 1))
        var fitting = max(Int(Double(lineCount) * perLine), 1)
        if fitting >= 20 { fitting -= fitting % 10 }
        return fitting < characters ? fitting : nil
    }

    private func misfit(_ problem: TextMisfit.Problem, _ remedy: TextMisfit.Remedy, at size: Double) -> ThumbnailError {
        .textDoesNotFit(TextMisfit(
            problem: problem, remedy: remedy, fit: settings.textFit, fontSize: size, roomWidth: room.width,
            roomHeight: room.height))
    }

    /// Pixels the outline adds across and down: its radius on each side.
    private func outlineReach(_ size: Double) -> Double {
        settings.outlineEnabled ? Double(2 * Outline.radius(fontSize: size)) : 0
    }

    /// The lines one after another: each of the text's lines as broken, a blank one as a line without ink.
    private func laidOut(_ breaks: [[ClosedRange<Int>]]) -> [(words: MeasuredWords, span: ClosedRange<Int>)?] {
        zip(lines, breaks).flatMap { line, spans in spans.isEmpty ? [nil] : spans.map { (line, $0) } }
    }

    /// Pixels from the top of the first line's ink to the bottom of the last's, baselines `spacing` apart.
    private func inkHeight(
        of lines: ArraySlice<(words: MeasuredWords, span: ClosedRange<Int>)?>, spacing: Double, scale: Double
    ) -> Double {
        var top = Double.infinity, bottom = -Double.infinity
        for (index, line) in zip(lines.indices, lines) {
            guard let line else { continue }
            let rows = line.words.inkRows(line.span, scale: scale), baseline = Double(index - lines.startIndex) * spacing
            top = min(top, baseline + rows.top)
            bottom = max(bottom, baseline + rows.bottom)
        }
        return top.isFinite ? bottom - top : 0
    }

    private func widestWord(of line: MeasuredWords, scale: Double) -> (String, Double) {
        let widest = (0..<line.count).max { line.width($0...$0, scale: scale) < line.width($1...$1, scale: scale) }!
        return (String(line.text(widest...widest)), line.width(widest...widest, scale: scale))
    }
}
