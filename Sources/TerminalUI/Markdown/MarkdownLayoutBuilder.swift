import Markdown
import Presentation

/// Builds the lines of `MarkdownLayout`, block by block, with the anchor of each.
struct MarkdownLayoutBuilder {
    /// What goes before each line of a block: its first line (a list marker) and the rest.
    struct Prefix {
        var first: [StyledSpan] = []
        var rest: [StyledSpan] = []
        var width = 0

        /// For the blocks after the first of a container: the marker is behind them.
        var continuing: Prefix { Prefix(first: rest, rest: rest, width: width) }
    }

    /// Spaces a tab in a code block moves to the next multiple of.
    static let tabWidth = 4

    let width: Int
    private(set) var lines: [StyledLine] = []
    private(set) var anchors: [MarkdownAnchor] = []
    private(set) var links: [String] = []
    private var linkNumbers: [String: Int] = [:]
    /// The top-level block being laid out, and how far into its text.
    private var block = 0
    private var offset = 0

    init(width: Int) {
        self.width = width
    }

    var result: LaidOutText {
        LaidOutText(width: width, lines: lines, anchors: anchors, links: links)
    }

    // MARK: - Blocks

    mutating func layout(_ blocks: [MarkdownBlock]) {
        for index in blocks.indices { layout(blockAt: index, of: blocks) }
    }

    /// Top-level block `index`, and the blank line after it; blocks go in order, one at a
    /// time (`IncrementalMarkdownLayout`), as `layout` lays them all.
    mutating func layout(blockAt index: Int, of blocks: [MarkdownBlock]) {
        block = index
        offset = 0
        layoutBlock(blocks[index], prefix: Prefix(), listDepth: 0)
        if index < blocks.count - 1, !Self.bindsToNext(blocks[index]) { blankLine(Prefix()) }
    }

    /// `[1] https://…` for each link, after the body.
    mutating func layoutLinks(title: String, after blockCount: Int) {
        guard !links.isEmpty else { return }
        if !lines.isEmpty { blankLine(Prefix()) }
        block = blockCount
        offset = 0
        layoutWrapped([StyledSpan(TerminalText.sanitize(title), style: .heading)], prefix: Prefix())
        let numbers = links.indices.map { "[\($0 + 1)]" }
        let numberWidth = numbers.map(\.displayWidth).max() ?? 0
        for (link, number) in zip(links, numbers) {
            let marker = number + String(repeating: " ", count: numberWidth - number.displayWidth + 1)
            let prefix = Prefix(
                first: [StyledSpan(marker, style: .dim)], rest: [StyledSpan(String(repeating: " ", count: numberWidth + 1))],
                width: numberWidth + 1)
            layoutWrapped([StyledSpan(link, style: .link, link: link)], prefix: prefix)
        }
    }

    private mutating func layoutBlocks(_ blocks: [MarkdownBlock], prefix: Prefix, listDepth: Int, inListItem: Bool = false) {
        guard !blocks.isEmpty else {
            // An empty item or quote still shows its marker or bar.
            emit([], prefix: prefix.first)
            offset += 1
            return
        }
        for (index, element) in blocks.enumerated() {
            layoutBlock(element, prefix: index == 0 ? prefix : prefix.continuing, listDepth: listDepth)
            guard index < blocks.count - 1, !Self.bindsToNext(element) else { continue }
            // A list inside an item follows its text directly, as in a tight list.
            if inListItem, case .list = blocks[index + 1] { continue }
            blankLine(prefix.continuing)
        }
    }

    private mutating func layoutBlock(_ element: MarkdownBlock, prefix: Prefix, listDepth: Int) {
        switch element {
        case .heading(_, let inlines):
            layoutWrapped(spans(inlines, style: .heading), prefix: prefix)
        case .paragraph(let inlines):
            layoutWrapped(spans(inlines, style: .normal), prefix: prefix)
        case .quote(let children):
            let bar = StyledSpan("│ ", style: .quote)
            layoutBlocks(children, prefix: indented(prefix, first: bar, rest: bar), listDepth: listDepth)
        case .list(let ordered, let start, let items):
            layoutList(ordered: ordered, start: start, items: items, prefix: prefix, listDepth: listDepth)
        case .code(_, let text):
            layoutCode(text, prefix: prefix)
        case .thematicBreak:
            emit([StyledSpan(String(repeating: "─", count: contentWidth(prefix)), style: .dim)], prefix: prefix.first)
            offset += 1
        case .html(let text):
            // Literal, line for line: never interpreted.
            let htmlLines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let spans = htmlLines.enumerated().map { index, line in
                StyledSpan((index > 0 ? "\n" : "") + TerminalText.sanitize(line), style: .dim)
            }
            layoutWrapped(spans, prefix: prefix)
        }
    }

    /// Headings below level 2 sit right on top of what they head.
    private static func bindsToNext(_ element: MarkdownBlock) -> Bool {
        if case .heading(let level, _) = element { return level > 2 }
        return false
    }

    private mutating func layoutList(ordered: Bool, start: Int, items: [[MarkdownBlock]], prefix: Prefix, listDepth: Int) {
        let markers = items.indices.map { index in
            ordered ? "\(start &+ index)." : (listDepth.isMultiple(of: 2) ? "•" : "◦")
        }
        let markerWidth = (markers.map(\.displayWidth).max() ?? 0) + 1
        for (index, item) in items.enumerated() {
            // Numbers right-aligned, so the items' text lines up.
            let marker = String(repeating: " ", count: markerWidth - 1 - markers[index].displayWidth) + markers[index] + " "
            let itemPrefix = indented(
                index == 0 ? prefix : prefix.continuing, first: StyledSpan(marker),
                rest: StyledSpan(String(repeating: " ", count: markerWidth)))
            layoutBlocks(item, prefix: itemPrefix, listDepth: listDepth + 1, inListItem: true)
        }
    }

    /// `prefix` with a bar or marker added, unless that would leave the text too narrow:
    /// then deeper blocks are not indented further.
    private func indented(_ prefix: Prefix, first: StyledSpan, rest: StyledSpan) -> Prefix {
        let added = first.text.displayWidth
        let minimumContent = max(1, min(width / 2, 12))
        guard width - prefix.width - added >= minimumContent else { return prefix }
        return Prefix(first: prefix.first + [first], rest: prefix.rest + [rest], width: prefix.width + added)
    }

    private func contentWidth(_ prefix: Prefix) -> Int {
        max(1, width - prefix.width)
    }

    // MARK: - Text

    private mutating func layoutWrapped(_ spans: [StyledSpan], prefix: Prefix) {
        let (wrapped, length) = StyledTextWrapper.wrap(spans, width: contentWidth(prefix))
        for (index, line) in wrapped.enumerated() {
            emit(line.line.spans, prefix: index == 0 ? prefix.first : prefix.rest, at: offset + line.offset)
        }
        offset += length + 1
    }

    /// The spans of inline content; links get their number after their text.
    private mutating func spans(_ inlines: [MarkdownInline], style: Style) -> [StyledSpan] {
        var result: [StyledSpan] = []
        appendSpans(inlines, style: style, to: &result)
        return result
    }

    /// `link`: the address of the link the inlines are the text of (the innermost one).
    private mutating func appendSpans(
        _ inlines: [MarkdownInline], style: Style, link: String? = nil, to result: inout [StyledSpan]
    ) {
        for inline in inlines {
            switch inline {
            case .text(let text), .html(let text):
                result.append(StyledSpan(TerminalText.sanitize(text), style: style, link: link))
            case .code(let text):
                result.append(StyledSpan(TerminalText.sanitize(text), style: Self.style(.code, inside: style), link: link))
            case .emphasis(let children):
                appendSpans(children, style: Self.style(.emphasis, inside: style), link: link, to: &result)
            case .strong(let children):
                appendSpans(children, style: Self.style(.strong, inside: style), link: link, to: &result)
            case .link(let destination, let children), .image(let destination, let children):
                let number = number(ofLink: destination)
                let address = number.map { links[$0 - 1] }
                appendSpans(children, style: Self.style(.link, inside: style), link: address ?? link, to: &result)
                if let number {
                    result.append(StyledSpan("[\(number)]", style: .dim))
                }
            case .softBreak:
                result.append(StyledSpan(" ", style: style, link: link))
            case .lineBreak:
                result.append(StyledSpan("\n", style: style))
            }
        }
    }

    /// One style per character: a heading stays a heading, a link a link, whatever is inside.
    private static func style(_ inner: Style, inside outer: Style) -> Style {
        outer == .heading || outer == .link ? outer : inner
    }

    /// The link's number, the same for the same address; nil for an empty one.
    private mutating func number(ofLink destination: String) -> Int? {
        let address = TerminalText.sanitize(destination).trimmingSpaces()
        guard !address.isEmpty else { return nil }
        if let number = linkNumbers[address] { return number }
        links.append(address)
        linkNumbers[address] = links.count
        return links.count
    }

    // MARK: - Code

    /// Code as written: one line per line, shaded with a column of margin each side, a line
    /// too wide cut with a dim `…` at the edge. Never wrapped.
    private mutating func layoutCode(_ text: String, prefix: Prefix) {
        let available = contentWidth(prefix)
        let margin = available >= 3 ? 1 : 0
        let inner = available - 2 * margin
        let side = StyledSpan(String(repeating: " ", count: margin), style: .code)
        for (index, rawLine) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(Substring(rawLine))
            let (visible, isCut) = Self.visibleCode(line, width: inner)
            var spans = [side]
            if isCut {
                let cut = TerminalText.truncate(visible, toWidth: inner, ellipsis: true)
                spans.append(StyledSpan(String(cut.dropLast()), style: .code))
                spans.append(StyledSpan("…", style: .dim))
                spans.append(StyledSpan(String(repeating: " ", count: inner - cut.displayWidth), style: .code))
            } else {
                spans.append(StyledSpan(visible + String(repeating: " ", count: inner - visible.displayWidth), style: .code))
            }
            spans.append(side)
            emit(spans, prefix: index == 0 ? prefix.first : prefix.rest, at: offset)
            offset += line.utf8.count + 1
        }
    }

    /// The start of a code line that can show in `width` columns, its tabs expanded and the
    /// rest sanitised, and whether it is wider than that. Reads only what can show.
    private static func visibleCode(_ line: String, width: Int) -> (text: String, isCut: Bool) {
        let (start, isCut) = TerminalText.boundedPrefix(line, width: width)
        var text = ""
        var column = 0
        for (index, piece) in start.split(separator: "\t", omittingEmptySubsequences: false).enumerated() {
            if index > 0 {
                let spaces = tabWidth - column % tabWidth
                text += String(repeating: " ", count: spaces)
                column += spaces
            }
            let clean = TerminalText.sanitize(piece)
            text += clean
            column += clean.displayWidth
        }
        return (text, isCut || column > width)
    }

    // MARK: - Lines

    private mutating func emit(_ content: [StyledSpan], prefix: [StyledSpan], at offset: Int? = nil) {
        lines.append(StyledLine(prefix + content))
        anchors.append(MarkdownAnchor(block: block, offset: offset ?? self.offset))
    }

    /// An empty line between blocks, keeping the quote bars around it.
    private mutating func blankLine(_ prefix: Prefix) {
        var spans = prefix.rest
        while let last = spans.last, last.text.allSatisfy({ $0 == " " }) { spans.removeLast() }
        if let last = spans.indices.last { spans[last].text = spans[last].text.droppingTrailingSpaces() }
        emit([], prefix: spans)
        offset += 1
    }
}

extension String {
    fileprivate func droppingTrailingSpaces() -> String {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return String(text)
    }

    fileprivate func trimmingSpaces() -> String {
        var text = Substring(droppingTrailingSpaces())
        while text.first == " " { text.removeFirst() }
        return String(text)
    }
}
