/// A piece of a paragraph or heading: what flows along a line.
public enum MarkdownInline: Hashable, Sendable {
    case text(String)
    case emphasis([MarkdownInline])
    case strong([MarkdownInline])
    /// An inline code span.
    case code(String)
    case link(destination: String, [MarkdownInline])
    /// An image, which a terminal shows as a link to `source` with its alt text.
    case image(source: String, [MarkdownInline])
    /// A line end inside a paragraph: a space when the text is wrapped again.
    case softBreak
    /// A hard line break (two spaces or `\` before the line end).
    case lineBreak
    /// Inline raw HTML, kept as the literal text it is: never interpreted.
    case html(String)
}
