import Presentation

/// An in-memory canvas that measures text exactly as the terminal does and renders to plain
/// lines, so screens can be tested by comparing text.
public struct TextCanvas: Canvas {
    public struct Cell: Hashable, Sendable {
        /// The grapheme in the cell; empty for the right half of a wide character.
        public var text: String
        public var style: Style
    }

    public let size: Size
    public private(set) var cells: [Cell]
    public private(set) var cursor: (x: Int, y: Int)?
    /// The cells marked as links, as a terminal showing hyperlinks would make them.
    public private(set) var links: [LinkMark] = []

    public init(size: Size) {
        self.size = size
        self.cells = Array(repeating: Cell(text: " ", style: .normal), count: size.width * size.height)
    }

    public mutating func write(_ text: String, x: Int, y: Int, style: Style) {
        guard y >= 0, y < size.height else { return }
        if !links.isEmpty { links.cover(x: x, y: y, width: text.displayWidth) }
        var column = x
        // Scalar by scalar, as ncursesw places wide characters: a grapheme such as `a` plus a
        // skin-tone modifier takes the columns of both its spacing scalars.
        for scalar in text.unicodeScalars {
            let width = scalar.terminalWidth
            if width == 0 {
                // Combining marks join the cell before them, as on the terminal.
                if column > 0 { cells[index(column - 1, y)].text.unicodeScalars.append(scalar) }
                continue
            }
            guard column >= 0, column + width <= size.width else { break }
            clearWideCharacter(at: column, y: y)
            cells[index(column, y)] = Cell(text: String(scalar), style: style)
            if width == 2 {
                clearWideCharacter(at: column + 1, y: y)
                cells[index(column + 1, y)] = Cell(text: "", style: style)
            }
            column += width
        }
    }

    public mutating func setCursor(_ position: (x: Int, y: Int)?) {
        cursor = position
    }

    public mutating func markLink(_ address: String, x: Int, y: Int, width: Int) {
        links.mark(address, x: x, y: y, width: width, within: size)
    }

    /// The rows as text, trailing spaces removed.
    public var lines: [String] {
        (0..<size.height).map { row in
            var line = ""
            for column in 0..<size.width {
                line += cells[index(column, row)].text
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The whole canvas as one string, rows joined by newlines.
    public var text: String { lines.joined(separator: "\n") }

    public func style(atX x: Int, y: Int) -> Style {
        cells[index(x, y)].style
    }

    private func index(_ x: Int, _ y: Int) -> Int { y * size.width + x }

    /// Overwriting half of a wide character blanks its other half, as terminals do.
    private mutating func clearWideCharacter(at x: Int, y: Int) {
        let cell = cells[index(x, y)]
        if cell.text.isEmpty, x > 0 {
            cells[index(x - 1, y)].text = " "
        } else if cell.text.displayWidth == 2, x + 1 < size.width {
            cells[index(x + 1, y)].text = " "
        }
    }
}
