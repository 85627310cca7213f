import Markdown
import Presentation

/// A document laid out at one width as far as it has been read: its top-level blocks are laid
/// out in order when a line of theirs is first needed, so opening a long lesson costs its
/// first screen, and `G` or a resize deep into it what lies before. The lines are those of
/// `MarkdownLayout.layout`, whichever way they are reached.
public final class IncrementalMarkdownLayout {
    public let width: Int
    private let blocks: [MarkdownBlock]
    private let linksTitle: String
    private var builder: MarkdownLayoutBuilder
    private var nextBlock = 0
    /// Every block and the list of links are laid out: `lineCount` is the whole text's.
    public private(set) var isComplete = false

    init(_ document: MarkdownDocument, width: Int, linksTitle: String = "Links") {
        self.width = width
        blocks = document.blocks
        self.linksTitle = linksTitle
        builder = MarkdownLayoutBuilder(width: max(1, width))
        if blocks.isEmpty { finish() }
    }

    /// The lines laid out so far (all of them once `isComplete`).
    public var lineCount: Int { builder.lines.count }

    /// Lays out blocks until there are at least `count` lines, or all there are.
    public func prepare(lines count: Int) {
        while !isComplete, builder.lines.count < count { layoutNextBlock() }
    }

    /// Where line `line` starts in the document (laid out that far first).
    public func anchor(ofLine line: Int) -> MarkdownAnchor {
        prepare(lines: line.addingReportingOverflow(1).overflow ? .max : line + 1)
        return LaidOutText.anchor(ofLine: line, in: builder.anchors)
    }

    /// The line that holds `anchor`, as `LaidOutText.line(forAnchor:)`: the text is laid out
    /// past the anchor's block first, so the lines that may hold it are all there.
    public func line(forAnchor anchor: MarkdownAnchor) -> Int {
        while !isComplete, nextBlock <= anchor.block { layoutNextBlock() }
        return LaidOutText.line(forAnchor: anchor, in: builder.anchors)
    }

    /// Draws lines `top ..< top + rect.height` into `rect`, laying them out first if need be.
    public func draw(in canvas: inout some Canvas, rect: Rect, top: Int) {
        prepare(lines: top.addingReportingOverflow(rect.height).overflow ? .max : top + rect.height)
        LaidOutText.draw(builder.lines, in: &canvas, rect: rect, top: top)
    }

    private func layoutNextBlock() {
        builder.layout(blockAt: nextBlock, of: blocks)
        nextBlock += 1
        if nextBlock == blocks.count { finish() }
    }

    private func finish() {
        builder.layoutLinks(title: linksTitle, after: blocks.count)
        isComplete = true
    }
}
