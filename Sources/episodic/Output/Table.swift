/// Rows aligned in columns for people, cut to the terminal's width.
struct Table {
    struct Column {
        var title: String
        var alignRight = false
        /// A flexible column gives up width (its cells are cut with `…`) when the table is too wide.
        var flexible = false
    }

    var columns: [Column]
    var rows: [[String]] = []

    init(_ columns: [Column]) { self.columns = columns }

    mutating func append(_ row: [String]) {
        precondition(row.count == columns.count, "a row has one cell per column")
        rows.append(row)
    }

    /// The table as lines, at most `width` characters wide when a width is given.
    func render(width: Int?) -> [String] {
        var widths = columns.indices.map { index in
            ([columns[index].title] + rows.map { $0[index] }).map(\.count).max() ?? 0
        }
        let gap = 2
        if let width {
            var excess = widths.reduce(0, +) + gap * (columns.count - 1) - width
            for index in columns.indices.reversed() where columns[index].flexible && excess > 0 {
                let cut = min(excess, max(widths[index] - 8, 0))
                widths[index] -= cut
                excess -= cut
            }
        }
        return ([columns.map(\.title)] + rows).map { cells in
            let padded = cells.enumerated().map { index, cell in
                let text = Self.cut(cell, to: widths[index])
                let padding = String(repeating: " ", count: widths[index] - text.count)
                let last = index == cells.count - 1
                return columns[index].alignRight ? padding + text : (last ? text : text + padding)
            }
            return padded.joined(separator: String(repeating: " ", count: gap))
        }
    }

    private static func cut(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(width)) }
        return text.prefix(width - 1) + "…"
    }
}
