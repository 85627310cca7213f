import SharedKernel

/// A one-line message in the footer, in the words of the moment it is drawn (`LocalizedText`).
public struct StatusMessage: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case info
        case success
        case error
    }

    public var text: LocalizedText
    public var kind: Kind
    /// For a question about something named (`Unenroll from <title>? (y/n)`): the parts, so a
    /// short line cuts the name and never the question.
    public private(set) var question: Question?
    /// Which posting this is, when the shell posted it (`posted(_:)`): the same words posted
    /// again are another message, shown for a moment of their own, and never taken for one
    /// whose moment is over. `nil` for what a screen states (the same each frame).
    public private(set) var posting: Int?

    public struct Question: Hashable, Sendable {
        public var before: LocalizedText
        /// What the question is about, as it is: a title.
        public var subject: String
        public var after: LocalizedText
        /// Shorter endings, longest first, for a line too narrow for `after` with the
        /// subject whole (`? 3 of 6 lessons kept. (y/n)`).
        public var shorter: [LocalizedText] = []
        /// The ending of last resort (`? (y/n)`), for a line where no other leaves room for
        /// a little of the subject: the question stays answerable, its reassurance dropped.
        public var bare: LocalizedText?
    }

    public init(_ text: LocalizedText, kind: Kind = .info) {
        self.text = text
        self.kind = kind
    }

    public static func error(_ text: LocalizedText) -> StatusMessage { StatusMessage(text, kind: .error) }
    public static func success(_ text: LocalizedText) -> StatusMessage { StatusMessage(text, kind: .success) }

    /// `before` + `subject` + `after`, where only the subject is ever cut; on a narrow line
    /// one of the `shorter` endings may stand for `after` (see `displayText(fitting:)`).
    public static func question(
        _ before: LocalizedText, _ subject: String, _ after: LocalizedText, shorter: [LocalizedText] = [], bare: LocalizedText? = nil
    ) -> StatusMessage {
        var message = StatusMessage(before + .verbatim(subject) + after)
        message.question = Question(before: before, subject: subject, after: after, shorter: shorter, bare: bare)
        return message
    }

    /// This message as the shell's `number`th posting.
    public func posted(_ number: Int) -> StatusMessage {
        var message = self
        message.posting = number
        return message
    }

    /// Progress that lasts while it applies (`Saving…`): neither a question nor an outcome.
    public var isProgress: Bool { kind == .info && question == nil }

    /// As the footer writes it: errors start with `✗`, so they differ without colour too.
    public func displayText(_ texts: Texts) -> String { kind == .error ? "✗ " + texts(text) : texts(text) }
}
