import Presentation
import SharedKernel

/// A column of a `Table`: its heading, the widths it can take, and when it gives way.
public struct TableColumn: Sendable {
    public enum Width: Sendable, Equatable {
        /// Always this wide.
        case fixed(Int)
        /// One of these widths, widest first: giving way steps to the next (a level name
        /// `Intermediate` becomes `Int`). The cell is asked for text at the width chosen.
        case choices([Int])
        /// As wide as its widest text, within the bounds; giving way shrinks it towards `min`.
        /// A column whose widest text is empty (and `min` 0) is not shown.
        case flexible(min: Int, max: Int)
    }

    public enum Alignment: Sendable {
        case leading
        case trailing
    }

    public var heading: String
    /// The heading when the column is narrower than `heading` (`Lvl` for `Level`).
    public var compactHeading: String?
    public var width: Width
    public var alignment: Alignment
    /// When this column gives way, if ever: lower first. A column that gives way shortens
    /// (choices, flexible) and then, if `droppable`, goes.
    public var givesWay: Int?
    public var droppable: Bool
    /// A droppable column whose text says nothing cut (`quedan …` for `quedan 40`): it shows
    /// its widest text whole or goes, never narrower.
    public var keepsWhole: Bool
    /// Columns of space before this one (none before the first shown).
    public var gap: Int

    /// The two-cell gutter before the title where lists put their marks (`★✓`).
    public static let marks = TableColumn("", width: .fixed(2), gap: 0)

    /// A list's title column: it takes what the others leave (make it the table's primary).
    public static let title = TableColumn("Title", width: .flexible(min: 5, max: 120), gap: 1)

    /// The column with its headings in `texts`' language.
    public func translated(_ texts: Texts) -> TableColumn {
        var column = self
        column.heading = texts(LocalizedText(stringLiteral: heading))
        column.compactHeading = compactHeading.map { texts(LocalizedText(stringLiteral: $0)) }
        return column
    }

    /// The most cells this column can take: what measuring its texts may stop at.
    public var widest: Int {
        switch width {
        case .fixed(let width): width
        case .choices(let choices): choices.max() ?? 0
        case .flexible(_, let maximum): maximum
        }
    }

    public init(
        _ heading: String,
        compactHeading: String? = nil,
        width: Width,
        alignment: Alignment = .leading,
        givesWay: Int? = nil,
        droppable: Bool = false,
        keepsWhole: Bool = false,
        gap: Int = 2
    ) {
        self.heading = heading
        self.compactHeading = compactHeading
        self.width = width
        self.alignment = alignment
        self.givesWay = givesWay
        self.droppable = droppable
        self.keepsWhole = keepsWhole
        self.gap = gap
    }
}

/// One table for every list: columns sized by their content and bounds, the primary column
/// (the title) kept at a minimum while the others give way in their order, no column wider
/// than its widest text (so no wide gaps between columns), drawn only for the rows shown.
///
/// The columns are packed from the left; what no column wants stays empty at the right.
public struct Table: Sendable {
    public let columns: [TableColumn]
    /// Each column's width, or nil when it is not shown.
    public let widths: [Int?]
    /// Where each column starts, from the table's left edge.
    public let offsets: [Int]
    /// The width the table was laid out in; nothing is drawn beyond it.
    public let available: Int

    /// Lays `columns` out in `width` cells. `contentWidths[i]` is the widest text column `i`
    /// shows. Columns that give way do so, in their order, until the primary column has its content or
    /// `primaryTarget`, whichever is less; then the primary column takes what is left, up to its content.
    public init(
        _ columns: [TableColumn],
        contentWidths: [Int],
        width available: Int,
        primary: Int,
        primaryTarget: Int
    ) {
        var widths: [Int?] = columns.indices.map { index in
            let content = contentWidths.indices.contains(index) ? contentWidths[index] : 0
            let width: Int =
                switch columns[index].width {
                case .fixed(let width): width
                case .choices(let choices): choices.first ?? 0
                case .flexible(let minimum, let maximum): min(max(content, minimum), maximum)
                }
            return width > 0 ? width : nil
        }
        func total() -> Int {
            var sum = 0
            var first = true
            for (index, width) in widths.enumerated() {
                guard let width else { continue }
                sum += width + (first ? 0 : columns[index].gap)
                first = false
            }
            return sum
        }
        let primaryWanted = widths[primary] ?? 0
        widths[primary] = min(primaryWanted, primaryTarget)
        let order = columns.indices
            .compactMap { index in columns[index].givesWay.map { (index, $0) } }
            .filter { $0.0 != primary }
            .sorted { $0.1 < $1.1 }
            .map(\.0)
        for index in order where total() > available {
            switch columns[index].width {
            case .choices(let choices):
                for choice in choices.dropFirst() where total() > available { widths[index] = choice }
            case .flexible(let minimum, _):
                if let width = widths[index] {
                    widths[index] = max(minimum, width - (total() - available))
                }
            case .fixed:
                break
            }
            let content = contentWidths.indices.contains(index) ? contentWidths[index] : 0
            let cut = columns[index].keepsWhole && (widths[index] ?? 0) < content
            if columns[index].droppable, total() > available || cut { widths[index] = nil }
        }
        // The primary column takes what is left, up to its content; below its minimum only
        // when nothing else could give way.
        let spare = available - total()
        widths[primary] = max(1, min(primaryWanted, (widths[primary] ?? 0) + spare))

        var offsets: [Int] = []
        var x = 0
        var first = true
        for (index, width) in widths.enumerated() {
            if width != nil, !first { x += columns[index].gap }
            offsets.append(x)
            if let width {
                x += width
                first = false
            }
        }
        self.columns = columns
        self.widths = widths
        self.offsets = offsets
        self.available = available
    }

    /// The columns `text` takes when drawn, counting no further than `limit` (a column's
    /// widest), so a long text costs no more than a short one.
    static func contentWidth(_ text: String, limit: Int) -> Int {
        TerminalText.clean(text, width: limit).displayWidth
    }

    /// The widest text of each of `measured` columns over `rows` (`text(row, column)`), and
    /// every heading: the `contentWidths` a table of these rows is laid out with.
    public static func contentWidths<Row>(
        of rows: some Sequence<Row>,
        columns: [TableColumn],
        measuring measured: [Int],
        text: (Row, Int) -> String
    ) -> [Int] {
        var widths = columns.map { $0.heading.displayWidth }
        var count = 0
        defer { WorkMeter.count { $0.measured += count } }
        for row in rows {
            count += measured.count
            for column in measured {
                widths[column] = max(widths[column], contentWidth(text(row, column), limit: columns[column].widest))
            }
        }
        return widths
    }

    public func isShown(_ column: Int) -> Bool { widths[column] != nil }

    /// The width column `column` got, 0 when it is not shown.
    public func width(of column: Int) -> Int { widths[column] ?? 0 }

    /// The headings, each cut to its column (or its compact heading when it is narrower).
    public func drawHeadings(in canvas: inout some Canvas, x: Int, y: Int, style: Style = .dim) {
        let headings = columns.indices.map { index in
            let column = columns[index]
            guard let compact = column.compactHeading, column.heading.displayWidth > width(of: index) else { return column.heading }
            return compact
        }
        draw(headings, in: &canvas, x: x, y: y, style: style)
    }

    /// Draws one row of cells (text per column, at the width the layout gave it) at `x`,
    /// `y`. `styles` overrides the row's style per column (nil: the row's).
    public func draw(_ cells: [String], styles: [Style?] = [], in canvas: inout some Canvas, x: Int, y: Int, style: Style) {
        for (index, column) in columns.enumerated() {
            guard let layoutWidth = widths[index], cells.indices.contains(index) else { continue }
            let width = min(layoutWidth, available - offsets[index])
            guard width > 0 else { continue }
            let cellStyle = (styles.indices.contains(index) ? styles[index] : nil) ?? style
            let text = TerminalText.clean(cells[index], width: width)
            let shift = column.alignment == .trailing ? width - text.displayWidth : 0
            canvas.draw(text, x: x + offsets[index] + shift, y: y, width: width - shift, style: cellStyle)
        }
    }
}
