/// A block of a document: what stacks vertically.
public enum MarkdownBlock: Hashable, Sendable {
    /// `# Title` (level 1) to `###### Title` (level 6), or a setext heading.
    case heading(level: Int, [MarkdownInline])
    case paragraph([MarkdownInline])
    /// `> …`: the blocks quoted.
    case quote([MarkdownBlock])
    /// A bullet (`ordered == false`) or numbered list; `start` is the first item's number
    /// (1 for bullet lists), each item its blocks.
    case list(ordered: Bool, start: Int, items: [[MarkdownBlock]])
    /// A fenced or indented code block: its info string (`swift` after the fence; nil when
    /// there is none) and its text, without the final newline.
    case code(info: String?, text: String)
    case thematicBreak
    /// A raw HTML block, kept as the literal text it is: never interpreted.
    case html(String)
}
