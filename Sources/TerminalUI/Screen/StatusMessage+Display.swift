import Presentation

extension StatusMessage {
    /// `displayText` in at most `width` columns: a question keeps its words and cuts its subject.
    public func displayText(fitting width: Int) -> String {
        guard let question, displayText.displayWidth > width else { return TerminalText.clean(displayText, width: width) }
        let room = width - question.before.displayWidth - question.after.displayWidth
        guard room >= 2 else { return TerminalText.clean(displayText, width: width) }
        return question.before + TerminalText.clean(question.subject, width: room) + question.after
    }
}
