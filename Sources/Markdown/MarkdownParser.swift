import CCmark

/// Reads cmark's tree into the document model. Recursion is bounded by the depth caps; what
/// lies deeper is read with cmark's own iterator, which needs no stack, and kept as text.
enum MarkdownParser {
    /// Quotes and list items nested deeper than this are kept as plain text.
    static let maximumBlockDepth = 24
    /// Emphasis, strong, links and images nested deeper than this are kept as plain text.
    static let maximumInlineDepth = 24

    static func parse(_ text: String) -> [MarkdownBlock] {
        var text = text
        // The length is passed along, so a NUL in the text is parsed (cmark makes it U+FFFD)
        // rather than ending it.
        let root: OpaquePointer? = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters in
                guard let base = characters.baseAddress else { return nil }
                return cmark_parse_document(base, characters.count, CMARK_OPT_DEFAULT)
            }
        }
        guard let root else { return [] }
        defer { cmark_node_free(root) }
        return blocks(childrenOf: root, depth: 0)
    }

    // MARK: - Blocks

    private static func blocks(childrenOf node: OpaquePointer, depth: Int) -> [MarkdownBlock] {
        var result: [MarkdownBlock] = []
        var child = cmark_node_first_child(node)
        while let current = child {
            if let block = block(current, depth: depth) { result.append(block) }
            child = cmark_node_next(current)
        }
        return result
    }

    private static func block(_ node: OpaquePointer, depth: Int) -> MarkdownBlock? {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_HEADING:
            return .heading(level: Int(cmark_node_get_heading_level(node)), inlines(childrenOf: node, depth: 0))
        case CMARK_NODE_PARAGRAPH:
            return .paragraph(inlines(childrenOf: node, depth: 0))
        case CMARK_NODE_BLOCK_QUOTE:
            guard depth < maximumBlockDepth else { return flattened(node) }
            return .quote(blocks(childrenOf: node, depth: depth + 1))
        case CMARK_NODE_LIST:
            guard depth < maximumBlockDepth else { return flattened(node) }
            var items: [[MarkdownBlock]] = []
            var item = cmark_node_first_child(node)
            while let current = item {
                items.append(blocks(childrenOf: current, depth: depth + 1))
                item = cmark_node_next(current)
            }
            let ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST
            return .list(ordered: ordered, start: ordered ? Int(cmark_node_get_list_start(node)) : 1, items: items)
        case CMARK_NODE_CODE_BLOCK:
            let info = string(cmark_node_get_fence_info(node))
            return .code(info: info.isEmpty ? nil : info, text: withoutFinalNewline(literal(of: node)))
        case CMARK_NODE_HTML_BLOCK:
            return .html(withoutFinalNewline(literal(of: node)))
        case CMARK_NODE_THEMATIC_BREAK:
            return .thematicBreak
        default:
            return nil  // custom blocks: only made by extensions this parser does not use
        }
    }

    /// A block too deep to nest further, as one paragraph of its text.
    private static func flattened(_ node: OpaquePointer) -> MarkdownBlock {
        .paragraph([.text(plainText(of: node))])
    }

    // MARK: - Inlines

    private static func inlines(childrenOf node: OpaquePointer, depth: Int) -> [MarkdownInline] {
        var result: [MarkdownInline] = []
        // cmark leaves a text node at each special character it did not use (`*`, `[`…);
        // runs of them become one `.text`, appended in place so a long run stays linear.
        var pendingText = ""
        func flushText() {
            guard !pendingText.isEmpty else { return }
            result.append(.text(pendingText))
            pendingText = ""
        }
        var child = cmark_node_first_child(node)
        while let current = child {
            child = cmark_node_next(current)
            let type = cmark_node_get_type(current)
            if type == CMARK_NODE_TEXT {
                pendingText += literal(of: current)
                continue
            }
            if depth >= maximumInlineDepth, isContainer(type) {
                pendingText += plainText(of: current)
                continue
            }
            guard let inline = inline(current, type: type, depth: depth) else { continue }
            flushText()
            result.append(inline)
        }
        flushText()
        return result
    }

    private static func isContainer(_ type: cmark_node_type) -> Bool {
        switch type {
        case CMARK_NODE_EMPH, CMARK_NODE_STRONG, CMARK_NODE_LINK, CMARK_NODE_IMAGE: true
        default: false
        }
    }

    private static func inline(_ node: OpaquePointer, type: cmark_node_type, depth: Int) -> MarkdownInline? {
        switch type {
        case CMARK_NODE_SOFTBREAK: .softBreak
        case CMARK_NODE_LINEBREAK: .lineBreak
        case CMARK_NODE_CODE: .code(literal(of: node))
        case CMARK_NODE_HTML_INLINE: .html(literal(of: node))
        case CMARK_NODE_EMPH: .emphasis(inlines(childrenOf: node, depth: depth + 1))
        case CMARK_NODE_STRONG: .strong(inlines(childrenOf: node, depth: depth + 1))
        case CMARK_NODE_LINK:
            .link(destination: string(cmark_node_get_url(node)), inlines(childrenOf: node, depth: depth + 1))
        case CMARK_NODE_IMAGE:
            .image(source: string(cmark_node_get_url(node)), inlines(childrenOf: node, depth: depth + 1))
        default: nil  // custom inlines: only made by extensions this parser does not use
        }
    }

    // MARK: - Text

    /// All the text under `node`, read with cmark's iterator (no recursion, however deep).
    private static func plainText(of node: OpaquePointer) -> String {
        guard let iterator = cmark_iter_new(node) else { return "" }
        defer { cmark_iter_free(iterator) }
        var text = ""
        var event = cmark_iter_next(iterator)
        while event != CMARK_EVENT_DONE {
            defer { event = cmark_iter_next(iterator) }
            guard let current = cmark_iter_get_node(iterator) else { continue }
            switch (event, cmark_node_get_type(current)) {
            case (CMARK_EVENT_ENTER, CMARK_NODE_TEXT), (CMARK_EVENT_ENTER, CMARK_NODE_CODE),
                (CMARK_EVENT_ENTER, CMARK_NODE_HTML_INLINE), (CMARK_EVENT_ENTER, CMARK_NODE_CODE_BLOCK),
                (CMARK_EVENT_ENTER, CMARK_NODE_HTML_BLOCK):
                text += literal(of: current)
            case (CMARK_EVENT_ENTER, CMARK_NODE_SOFTBREAK), (CMARK_EVENT_ENTER, CMARK_NODE_LINEBREAK),
                (CMARK_EVENT_EXIT, CMARK_NODE_PARAGRAPH), (CMARK_EVENT_EXIT, CMARK_NODE_HEADING):
                text += " "
            default:
                break
            }
        }
        while text.last == " " { text.removeLast() }
        return text
    }

    private static func literal(of node: OpaquePointer) -> String {
        string(cmark_node_get_literal(node))
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    private static func withoutFinalNewline(_ text: String) -> String {
        text.last == "\n" ? String(text.dropLast()) : text
    }
}
