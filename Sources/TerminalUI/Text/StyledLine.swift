import Presentation

/// Text drawn in one style.
public struct StyledSpan: Hashable, Sendable {
    public var text: String
    public var style: Style
    /// The address the text links to (sanitised), for terminals that show hyperlinks.
    public var link: String?

    public init(_ text: String, style: Style = .normal, link: String? = nil) {
        self.text = text
        self.style = style
        self.link = link
    }
}

/// One row of styled text, laid out to fit the width it was made for.
public struct StyledLine: Hashable, Sendable {
    public var spans: [StyledSpan]

    public init(_ spans: [StyledSpan]) {
        self.spans = spans
    }

    /// The row's text without its styles.
    public var text: String { spans.map(\.text).joined() }
}
