/// Rows aligned in columns for people, fitted to the terminal's width: no row ever wraps.
struct Table {
    struct Column {
        var title: String
        var alignRight = false
        /// A flexible column gives up width (its cells are cut with `…`) when the table is too wide.
        var flexible = false
        /// A shorter heading, used when the table is too wide (`TR` for `TRANSCRIPT`).
        var short: String? = nil
        /// When the table is still too wide, columns are left out, the lowest first; nil: never (the
        /// names, and the column a command answers with).
        var dropOrder: Int? = nil
        /// The column the command answers with (a search's match): cut only after every other.
        var answer = false
    }

    var columns: [Column]
    /// Cells as stored or typed: ``render(width:)`` escapes them.
    var rows: [[String]] = []

    init(_ columns: [Column]) { self.columns = columns }

    mutating func append(_ row: [String]) {
        precondition(row.count == columns.count, "a row has one cell per column")
        rows.append(row)
    }

    /// A flexible column keeps at least this many characters while other columns can be left out.
    private static let comfortable = 24
    /// ... and is never cut below this.
    private static let least = 8
    private static let gap = 2

    /// The table as lines, at most `width` characters wide when a width is given. Cells are escaped
    /// (``TerminalText``) before they are measured, so that columns line up with what is printed.
    /// When too wide: short headings first, then columns left out by their drop order while the
    /// flexible ones keep a comfortable width, then the flexible ones cut, then every line cut.
    func render(width: Int?) -> [TerminalText] {
        let body = rows.map { $0.map { TerminalText($0) } }
        var shown = Array(columns.indices)
        var short = false
        func headings() -> [TerminalText] {
            columns.map { TerminalText(stringLiteral: short ? ($0.short ?? $0.title) : $0.title) }
        }
        let cellWidths = columns.indices.map { index in body.map { $0[index].width }.max() ?? 0 }
        func natural(_ index: Int) -> Int {
            max((short ? (columns[index].short ?? columns[index].title) : columns[index].title).count, cellWidths[index])
        }
        func total(_ capFlexible: Int?) -> Int {
            shown.map { index in
                let width = natural(index)
                return columns[index].flexible ? min(width, capFlexible ?? width) : width
            }.reduce(0, +) + Self.gap * max(shown.count - 1, 0)
        }
        var widths = columns.indices.map(natural)
        if let width, total(nil) > width {
            short = true
            while total(Self.comfortable) > width,
                  let drop = shown.filter({ columns[$0].dropOrder != nil }).min(by: { columns[$0].dropOrder! < columns[$1].dropOrder! })
            {
                shown.removeAll { $0 == drop }
            }
            widths = columns.indices.map(natural)
            var excess = total(nil) - width
            let cuttable = shown.filter { columns[$0].flexible }
            for index in cuttable.filter({ !columns[$0].answer }).reversed() + cuttable.filter({ columns[$0].answer }) where excess > 0 {
                let cut = min(excess, max(widths[index] - Self.least, 0))
                widths[index] -= cut
                excess -= cut
            }
        }
        let separator = TerminalText(stringLiteral: String(repeating: " ", count: Self.gap))
        return ([headings()] + body).map { row in
            let cells = shown.enumerated().map { place, index in
                let text = row[index].cut(to: widths[index])
                let last = place == shown.count - 1
                return columns[index].alignRight ? text.padded(to: widths[index], right: true) : (last ? text : text.padded(to: widths[index]))
            }
            let line = cells.dropFirst().reduce(cells.first ?? "") { $0 + separator + $1 }
            return width.map { line.cut(to: $0) } ?? line
        }
    }
}
