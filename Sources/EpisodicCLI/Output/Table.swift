/// Rows aligned in columns for people, cut to the terminal's width.
struct Table {
    struct Column {
        var title: String
        var alignRight = false
        /// A flexible column gives up width (its cells are cut with `…`) when the table is too wide.
        var flexible = false
    }

    var columns: [Column]
    /// Cells as stored or typed: ``render(width:)`` escapes them.
    var rows: [[String]] = []

    init(_ columns: [Column]) { self.columns = columns }

    mutating func append(_ row: [String]) {
        precondition(row.count == columns.count, "a row has one cell per column")
        rows.append(row)
    }

    /// The table as lines, at most `width` characters wide when a width is given. Cells are escaped
    /// (``TerminalText``) before they are measured, so that columns line up with what is printed.
    func render(width: Int?) -> [TerminalText] {
        let cells = ([columns.map { TerminalText(stringLiteral: $0.title) }] + rows.map { $0.map { TerminalText($0) } })
        var widths = columns.indices.map { index in cells.map { $0[index].width }.max() ?? 0 }
        let gap = 2
        let separator = TerminalText(stringLiteral: String(repeating: " ", count: gap))
        if let width {
            var excess = widths.reduce(0, +) + gap * (columns.count - 1) - width
            for index in columns.indices.reversed() where columns[index].flexible && excess > 0 {
                let cut = min(excess, max(widths[index] - 8, 0))
                widths[index] -= cut
                excess -= cut
            }
        }
        return cells.map { row in
            let padded = row.enumerated().map { index, cell in
                let text = cell.cut(to: widths[index])
                let last = index == row.count - 1
                return columns[index].alignRight ? text.padded(to: widths[index], right: true) : (last ? text : text.padded(to: widths[index]))
            }
            return padded.dropFirst().reduce(padded[0]) { $0 + separator + $1 }
        }
    }
}
