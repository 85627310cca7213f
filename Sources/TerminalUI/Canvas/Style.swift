import Presentation

/// What a piece of text means on screen. The terminal maps each role to colours and
/// attributes, with a monochrome fallback, so screens never pick colours themselves.
public enum Style: Hashable, Sendable, CaseIterable {
    case normal
    /// Secondary text: column headings, metadata labels.
    case dim
    /// Emphasis without colour: titles.
    case bold
    /// Highlights: the search prompt, keys in the help.
    case accent
    /// The learner's marks: `★` and `✓`.
    case marks
    /// The selected row of a list.
    case selection
    /// The header bar.
    case header
    /// The current tab in the header.
    case activeTab
    case error
    case success
    /// A key name in the footer.
    case key

    // MARK: - Lesson text (Markdown)

    /// A heading of a lesson.
    case heading
    /// `*emphasis*`: italic where the terminal has it.
    case emphasis
    /// `**strong**`.
    case strong
    /// Inline code and code blocks: shaded, so a block reads as one box.
    case code
    /// A link's text (its address is listed after the lesson).
    case link
    /// The bar before quoted lines.
    case quote
}
