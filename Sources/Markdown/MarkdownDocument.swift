/// A CommonMark document as a small tree of values: what a lesson body says, with nothing
/// of the parser that read it.
public struct MarkdownDocument: Hashable, Sendable {
    public var blocks: [MarkdownBlock]

    public init(blocks: [MarkdownBlock]) {
        self.blocks = blocks
    }

    /// Parses CommonMark text. Never fails: any text is some document. Nesting deeper than
    /// `MarkdownParser.maximumBlockDepth` blocks or `maximumInlineDepth` inlines is kept as
    /// plain text, so hostile input cannot make the tree (or anything walking it) deep.
    public init(parsing text: String) {
        self.blocks = MarkdownParser.parse(text)
    }
}
