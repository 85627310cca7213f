import Markdown

/// A lesson's Markdown, parsed once: what a view-model keeps, laid out at any width by the
/// screen (TerminalUI), so features need not see the Markdown module.
public struct MarkdownText: Sendable {
    public let document: MarkdownDocument

    public init(parsing text: String) {
        document = MarkdownDocument(parsing: text)
    }
}
