import Markdown
import Presentation

extension MarkdownText {
    public func layout(width: Int) -> LaidOutText {
        MarkdownLayout.layout(document, width: width)
    }

    /// The same lines, laid out only as far as they are read.
    public func incrementalLayout(width: Int, linksTitle: String = "Links") -> IncrementalMarkdownLayout {
        IncrementalMarkdownLayout(document, width: width, linksTitle: linksTitle)
    }
}
