import Presentation

/// A document laid out into styled lines for one width: what a reader scrolls through.
public struct LaidOutText: Hashable, Sendable {
    /// The width the lines fit.
    public let width: Int
    public let lines: [StyledLine]
    /// The links' addresses, `[1]` first, as listed after the body.
    public let links: [String]
    /// Where each line starts; never decreasing.
    private let anchors: [MarkdownAnchor]

    init(width: Int, lines: [StyledLine], anchors: [MarkdownAnchor], links: [String]) {
        self.width = width
        self.lines = lines
        self.anchors = anchors
        self.links = links
    }

    /// Where line `line` starts in the document (clamped to the lines there are).
    public func anchor(ofLine line: Int) -> MarkdownAnchor {
        Self.anchor(ofLine: line, in: anchors)
    }

    /// The line that holds `anchor`: the last line starting at or before it (the first of
    /// several starting at the same place). With `anchor(ofLine:)` of another layout of the
    /// same document, it keeps the reading position across a change of width.
    public func line(forAnchor anchor: MarkdownAnchor) -> Int {
        Self.line(forAnchor: anchor, in: anchors)
    }

    /// Draws lines `top ..< top + rect.height` into `rect`; only those lines are read.
    public func draw(in canvas: inout some Canvas, rect: Rect, top: Int) {
        Self.draw(lines, in: &canvas, rect: rect, top: top)
    }

    static func anchor(ofLine line: Int, in anchors: [MarkdownAnchor]) -> MarkdownAnchor {
        guard !anchors.isEmpty else { return MarkdownAnchor(block: 0, offset: 0) }
        return anchors[min(max(0, line), anchors.count - 1)]
    }

    static func line(forAnchor anchor: MarkdownAnchor, in anchors: [MarkdownAnchor]) -> Int {
        let after = firstIndex(in: anchors) { $0 > anchor }
        guard after > 0 else { return 0 }
        return firstIndex(in: anchors) { $0 >= anchors[after - 1] }
    }

    static func draw(_ lines: [StyledLine], in canvas: inout some Canvas, rect: Rect, top: Int) {
        for row in 0..<rect.height {
            let index = top + row
            guard index >= 0 else { continue }
            guard index < lines.count else { break }
            var x = rect.x
            for span in lines[index].spans where x < rect.maxX {
                let used = canvas.draw(span.text, x: x, y: rect.y + row, width: rect.maxX - x, style: span.style)
                if let link = span.link, used > 0 { canvas.markLink(link, x: x, y: rect.y + row, width: used) }
                x += used
            }
        }
    }

    /// The first index whose anchor satisfies `predicate`, which must be false then true
    /// along the lines (a binary search).
    private static func firstIndex(in anchors: [MarkdownAnchor], where predicate: (MarkdownAnchor) -> Bool) -> Int {
        var low = 0
        var high = anchors.count
        while low < high {
            let middle = (low + high) / 2
            if predicate(anchors[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
