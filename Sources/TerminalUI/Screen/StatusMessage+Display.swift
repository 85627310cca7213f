import Presentation
import SharedKernel

extension StatusMessage {
    /// A subject cut to fewer columns than this says too little: a shorter ending is taken
    /// first, if the question has one.
    static let shortestSubject = 12

    /// `displayText` in at most `width` columns: a question keeps its words and cuts its
    /// subject. With shorter endings, it takes the longest that shows the subject whole, else
    /// the longest that leaves the subject `shortestSubject` columns, else the shortest if it
    /// leaves any, else the bare question (`? (y/n)`) if there is one.
    public func displayText(fitting width: Int, texts: Texts) -> String {
        let whole = displayText(texts)
        guard let question, whole.displayWidth > width else { return TerminalText.clean(whole, width: width) }
        let before = texts(question.before)
        let endings = ([question.after] + question.shorter).map { texts($0) }
        let subject = question.subject.displayWidth
        let room = { (ending: String) in width - before.displayWidth - ending.displayWidth }
        let bare = question.bare.map { texts($0) }
        let after =
            endings.first { room($0) >= subject }
            ?? endings.first { room($0) >= min(subject, Self.shortestSubject) }
            ?? endings.last.flatMap { room($0) >= 2 ? $0 : nil }
            ?? bare.flatMap { room($0) >= 2 ? $0 : nil }
            ?? endings.last ?? texts(question.after)
        guard room(after) >= 2 else { return TerminalText.clean(whole, width: width) }
        return before + TerminalText.clean(question.subject, width: room(after)) + after
    }
}
