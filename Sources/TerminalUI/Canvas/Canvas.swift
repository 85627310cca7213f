import Presentation

/// Something a screen draws into: the real terminal or an in-memory buffer.
public protocol Canvas {
    var size: Size { get }

    /// Writes `text` at a cell. Callers pass text that is sanitized and fits on the row;
    /// use `draw(_:x:y:width:style:)`, which guarantees both.
    mutating func write(_ text: String, x: Int, y: Int, style: Style)

    /// Shows the text cursor at a cell, or hides it with `nil`.
    mutating func setCursor(_ position: (x: Int, y: Int)?)
    /// Where the text cursor shows, if it does.
    var cursor: (x: Int, y: Int)? { get }

    /// Says that the `width` cells from (`x`, `y`), drawn already, link to `address`: a
    /// terminal that shows hyperlinks makes them one. Text drawn over them later ends it there.
    mutating func markLink(_ address: String, x: Int, y: Int, width: Int)

    /// The accessible mode: what is drawn is for a screen reader as much as for the eye (words
    /// for marks, no box drawing, no animation). Widgets draw their plain form when it is on.
    var isAccessible: Bool { get }

    /// Says where the learner's attention is on this frame (the selected row, a message in
    /// place of a list): the accessible mode puts the terminal's cursor there.
    mutating func markFocus(x: Int, y: Int)
    /// The last place marked as the focus on this frame.
    var focus: (x: Int, y: Int)? { get }
}

/// Cells of one row that link to an address (`Canvas.markLink`).
public struct LinkMark: Hashable, Sendable {
    public var address: String
    public var x: Int
    public var y: Int
    public var width: Int

    public init(address: String, x: Int, y: Int, width: Int) {
        self.address = address
        self.x = x
        self.y = y
        self.width = width
    }
}

extension [LinkMark] {
    /// Notes `width` cells from (`x`, `y`) as a link, cut to a canvas of `size`.
    public mutating func mark(_ address: String, x: Int, y: Int, width: Int, within size: Size) {
        let left = Swift.max(0, x)
        let right = Swift.min(size.width, x + width)
        guard y >= 0, y < size.height, right > left else { return }
        append(LinkMark(address: address, x: left, y: y, width: right - left))
    }

    /// Text written over `width` cells from (`x`, `y`): the marks it covers end, cut to what
    /// stays uncovered to its left (a link's remains are never a link of their own elsewhere).
    public mutating func cover(x: Int, y: Int, width: Int) {
        guard !isEmpty, width > 0 else { return }
        self = compactMap { mark in
            guard mark.y == y, mark.x < x + width, x < mark.x + mark.width else { return mark }
            guard mark.x < x else { return nil }
            var left = mark
            left.width = x - mark.x
            return left
        }
    }
}

extension Canvas {
    /// A canvas that cannot show hyperlinks ignores them.
    public mutating func markLink(_ address: String, x: Int, y: Int, width: Int) {}

    public var isAccessible: Bool { false }

    /// Only the accessible mode follows the focus.
    public mutating func markFocus(x: Int, y: Int) {}
    public var focus: (x: Int, y: Int)? { nil }
    /// A canvas that keeps no cursor has none to tell.
    public var cursor: (x: Int, y: Int)? { nil }
}

extension Canvas {
    /// Draws data text safely: control characters and escape sequences removed, cut with `…`
    /// to `width` columns (and to the canvas edge). Only the part that can show is read, so
    /// a megabyte of text costs what a word does. Returns the columns used.
    @discardableResult
    public mutating func draw(_ text: String, x: Int, y: Int, width: Int? = nil, style: Style = .normal) -> Int {
        guard y >= 0, y < size.height, x >= 0, x < size.width else { return 0 }
        let available = min(width ?? Int.max, size.width - x)
        guard available > 0 else { return 0 }
        let clean = TerminalText.clean(text, width: available)
        write(clean, x: x, y: y, style: style)
        return clean.displayWidth
    }

    /// Paints a rectangle with spaces in a style, e.g. a selection bar or the header background.
    public mutating func fill(_ rect: Rect, style: Style) {
        let left = max(0, rect.x)
        let right = min(size.width, rect.x + rect.width)
        guard right > left else { return }
        let blank = String(repeating: " ", count: right - left)
        for row in max(0, rect.y)..<min(size.height, rect.maxY) {
            write(blank, x: left, y: row, style: style)
        }
    }

    /// Draws `text` centred on a row of `rect`.
    mutating func drawCentered(_ text: String, in rect: Rect, y: Int, style: Style = .normal) {
        let clean = TerminalText.clean(text, width: rect.width)
        let x = rect.x + max(0, (rect.width - clean.displayWidth) / 2)
        write(clean, x: x, y: y, style: style)
    }
}
