import Markdown

/// A lesson's Markdown, parsed once, laid out at any width: what a screen keeps so features
/// need not see the Markdown module.
public struct MarkdownText: Sendable {
    private let document: MarkdownDocument

    public init(parsing text: String) {
        document = MarkdownDocument(parsing: text)
    }

    public func layout(width: Int) -> LaidOutText {
        MarkdownLayout.layout(document, width: width)
    }

    /// The same lines, laid out only as far as they are read.
    public func incrementalLayout(width: Int, linksTitle: String = "Links") -> IncrementalMarkdownLayout {
        IncrementalMarkdownLayout(document, width: width, linksTitle: linksTitle)
    }
}
