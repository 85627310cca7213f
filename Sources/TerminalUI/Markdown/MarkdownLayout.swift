import Markdown
import Presentation

/// Lays a Markdown document out into styled lines for a width: paragraphs wrapped at word
/// boundaries, code blocks kept as written (cut with `…` when too wide), lists and quotes
/// indented, and links numbered with their addresses listed after the body.
public enum MarkdownLayout {
    /// The document's lines at `width` columns; `linksTitle` heads the list of links.
    /// Every piece of text is sanitised: nothing in the document can reach the terminal as
    /// a control character or an escape sequence.
    public static func layout(_ document: MarkdownDocument, width: Int, linksTitle: String = "Links") -> LaidOutText {
        var builder = MarkdownLayoutBuilder(width: max(1, width))
        builder.layout(document.blocks)
        builder.layoutLinks(title: linksTitle, after: document.blocks.count)
        return builder.result
    }
}
