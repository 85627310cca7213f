import Presentation
import SharedKernel
import TerminalUI

/// A lesson, full screen: its text wrapped to a readable measure (centred on a wide terminal),
/// then its questions one at a time; at the end, `Space` marks it done and opens the next.
@MainActor
final class LessonReaderScreen: Screen {
    enum Keys {
        static let scroll = KeyDeclaration(
            "↑↓", "scroll", help: "scroll the lesson (also k j; PgUp PgDn Space, g G: top, end)",
            actions: [KeyAction("reader.up", .up, title: "Scroll up"), KeyAction("reader.down", .down, title: "Scroll down")])
        static let more = KeyDeclaration("Space", "more", help: "the next page of the lesson", action: "reader.more")
        static let questions = KeyDeclaration(
            "Space", "questions", help: "at the end of the text: its questions", action: "reader.questions")
        static let nextQuestion = KeyDeclaration(
            "Space", "next question", help: "after an answer: the next question", action: "reader.next_question")
        static let markDone = KeyDeclaration(
            "Space", "mark done and continue", help: "mark the lesson done and open the next", action: "reader.mark_done")
        static let nextLesson = KeyDeclaration(
            "Space", "next lesson", help: "a lesson done already: open the next", action: "reader.next_lesson_done")
        static let finish = KeyDeclaration(
            "Space", "back to the course", help: "the last lesson, done: back to the course page", action: "reader.finish")
        static let choose = KeyDeclaration(
            "1-6", "choose", help: "choose an answer (also ↑↓ and Space; several where the question says so)",
            keys: (1...6).map { .character(Character(String($0))) })
        static let moveChoice = KeyDeclaration(
            "↑↓", "choice", help: "in a question: move between the choices",
            actions: [
                KeyAction("reader.choice_up", .up, title: "Previous choice"), KeyAction("reader.choice_down", .down, title: "Next choice"),
            ])
        static let answer = KeyDeclaration("Enter", "answer", help: "answer the question with the choices picked", action: "reader.answer")
        static let next = KeyDeclaration("n", "next", help: "the next lesson", action: "reader.next_lesson")
        static let previous = KeyDeclaration("p", "previous", help: "the previous lesson", action: "reader.previous_lesson")
        static let text = KeyDeclaration(
            "Esc", "text", help: "in a question: back to the lesson's text (Esc again: the course)", action: "reader.text")
        static let retry = KeyDeclaration("r", "reload", help: "read the lesson again (retry after an error)", action: "reader.reload")
    }

    nonisolated static let declaredKeys = [
        Keys.scroll, Keys.moveChoice, Keys.choose, Keys.answer, Keys.more, Keys.questions, Keys.nextQuestion, Keys.markDone,
        Keys.nextLesson, Keys.finish, Keys.next, Keys.previous, Keys.text, Keys.retry,
    ]
    static let noText: LocalizedText = "This lesson has no text yet"
    /// The widest the text runs, in columns: a readable measure.
    static let measure = 100

    private let viewModel: LessonReaderViewModel
    private let onOpenLesson: @MainActor (Int) -> Void
    private let onBack: @MainActor () -> Void
    /// The text laid out at the width of the last frame (as far as it was read), the first
    /// line shown, and the rows the text had: a resize lays it out again and keeps the
    /// reading position.
    private var laidOut: IncrementalMarkdownLayout?
    private var top = 0
    /// The scroll last drawn, and the row of the first line the last scroll brought: where a
    /// screen reader goes (`--accessible`), not back to the title on every `Space`.
    private var shownTop = 0
    private var newTextRow: Int?
    private var textHeight = 10

    init(viewModel: LessonReaderViewModel, onOpenLesson: @escaping @MainActor (Int) -> Void, onBack: @escaping @MainActor () -> Void) {
        self.viewModel = viewModel
        self.onOpenLesson = onOpenLesson
        self.onBack = onBack
    }

    var keys: [KeyDeclaration] { Self.declaredKeys }

    /// What Space does now, if anything.
    private var space: KeyDeclaration? {
        guard let page = viewModel.page else { return nil }
        if let open = viewModel.openQuestion {
            guard viewModel.answer(to: open.index) != nil else { return nil }
            if page.questions.indices.contains(open.index + 1) { return Keys.nextQuestion }
            return finishing(page)
        }
        if !isAtEnd { return Keys.more }
        if !page.allAnswered { return Keys.questions }
        return finishing(page)
    }

    private func finishing(_ page: LessonPage) -> KeyDeclaration? {
        if !viewModel.isDone { return viewModel.holdsPlace ? Keys.markDone : nil }
        return page.hasNext ? Keys.nextLesson : Keys.finish
    }

    func availability(of key: KeyDeclaration) -> KeyAvailability {
        if key == Keys.retry {
            switch viewModel.state {
            case .loaded, .empty, .error: return .available
            case .idle, .loading: return .unavailable(reason: "The lesson is being read")
            }
        }
        guard let page = viewModel.page else { return .dormant }
        let question = viewModel.openQuestion
        let unanswered = question.map { viewModel.answer(to: $0.index) == nil } ?? false
        switch key {
        case Keys.scroll: return question == nil ? .available : .dormant
        case Keys.moveChoice, Keys.choose: return unanswered ? .available : .dormant
        case Keys.answer:
            return !unanswered ? .dormant : viewModel.picked.isEmpty ? .unavailable(reason: "Pick an answer first") : .available
        case Keys.more, Keys.questions, Keys.nextQuestion, Keys.markDone, Keys.nextLesson, Keys.finish:
            if key == space { return .available }
            if space == nil && key == Keys.markDone && !viewModel.holdsPlace && question == nil && isAtEnd {
                return .unavailable(reason: "Enroll in \(page.course.title) to mark its lessons done")
            }
            return .dormant
        case Keys.next: return page.hasNext ? .available : .unavailable(reason: "This is the last lesson of \(page.course.title)")
        case Keys.previous: return page.number > 1 ? .available : .unavailable(reason: "This is the first lesson of \(page.course.title)")
        case Keys.text: return question == nil ? .dormant : .available
        default: return .dormant
        }
    }

    var isAnimating: Bool { viewModel.state.isLoading }

    /// While a question shows, the digits pick its answers, never switch tabs (the rule of
    /// every screen that takes digits: `Alt-1`…`Alt-5` do).
    var takesDigits: Bool { viewModel.openQuestion != nil }

    func accepts(_ event: InputEvent) -> Bool {
        switch viewModel.state {
        case .idle, .loading: false
        case .loaded, .empty, .error: !viewModel.isAnswering
        }
    }

    func appear() {
        switch viewModel.state {
        case .idle, .error: break
        case .loading, .empty, .loaded: return
        }
        let viewModel = self.viewModel
        viewModel.tasks.run { await viewModel.load() }
    }

    func disappear() {
        viewModel.tasks.cancelAll()
    }

    func settle() async {
        await viewModel.tasks.settle()
    }

    // MARK: - Drawing

    func draw(in canvas: inout some Canvas, frame: Frame) {
        let texts = frame.texts
        StateView.draw(viewModel.state, in: &canvas, area: frame.area, tick: frame.tick, texts: texts, empty: [Self.noText]) {
            canvas, page in
            drawPage(page, in: &canvas, area: frame.area, texts: texts)
        }
    }

    private func drawPage(_ page: LessonPage, in canvas: inout some Canvas, area: Rect, texts: Texts) {
        // Read, so the render loop draws again when the text scrolls (the position is the screen's).
        _ = viewModel.scrolls
        let width = min(max(1, area.width - 2), Self.measure)
        let x = area.x + max(1, (area.width - width) / 2)
        let heading = texts("Lesson \(page.number) of \(page.syllabus.lessons.count)") + " · \(page.course.title)"
        let mark = viewModel.isDone ? "✓ " + texts("done") : ""
        canvas.draw(heading, x: x, y: area.y, width: width - mark.displayWidth - (mark.isEmpty ? 0 : 2), style: .dim)
        if !mark.isEmpty { canvas.draw(mark, x: x + width - mark.displayWidth, y: area.y, style: .marks) }
        canvas.draw(page.lesson.title, x: x, y: area.y + 1, width: width, style: .bold)
        canvas.markFocus(x: x, y: area.y + 1)
        // The last row is kept for `↓ more`, so the mark never covers text.
        let body = Rect(x: x, y: area.y + 3, width: width, height: max(0, area.height - 4))
        textHeight = max(1, body.height)
        if let open = viewModel.openQuestion {
            // A question has no `↓ more`: it takes the last row too.
            let whole = Rect(x: body.x, y: body.y, width: body.width, height: body.height + 1)
            drawQuestion(open.index, open.question, of: page, in: &canvas, area: whole, texts: texts)
        } else {
            drawText(page, in: &canvas, area: body, texts: texts)
        }
    }

    private func drawText(_ page: LessonPage, in canvas: inout some Canvas, area: Rect, texts: Texts) {
        guard let text = page.text else {
            canvas.draw(texts(Self.noText), x: area.x, y: area.y, width: area.width, style: .dim)
            drawEnd(page, in: &canvas, x: area.x, y: area.y + 2, width: area.width, height: area.height - 2, texts: texts)
            return
        }
        let laid = layout(text, width: area.width, texts: texts)
        // This screen's lines and the two after them (the blank, the end line): once the
        // text is laid out to its end, the scroll is clamped to it.
        laid.prepare(lines: top.addingReportingOverflow(area.height + 2).overflow ? .max : top + area.height + 2)
        if laid.isComplete { top = min(top, maxTop(laid)) }
        laid.draw(in: &canvas, rect: area, top: top)
        if top != shownTop {
            // Down: the lines that were below come in under those still shown; up: at the top.
            newTextRow = top > shownTop ? max(0, area.height - (top - shownTop)) : 0
            shownTop = top
        }
        if top == 0 { newTextRow = nil }
        if let row = newTextRow { canvas.markFocus(x: area.x, y: area.y + min(row, max(0, area.height - 1))) }
        let endRow = laid.lineCount - top + 1
        drawEnd(page, in: &canvas, x: area.x, y: area.y + endRow, width: area.width, height: area.height - endRow, texts: texts)
        let upMore = texts("↑ more")
        let downMore = texts("↓ more")
        if top > 0 { canvas.draw(upMore, x: area.x + area.width - upMore.displayWidth, y: area.y - 1, style: .dim) }
        if !isAtEnd { canvas.draw(downMore, x: area.x + area.width - downMore.displayWidth, y: area.maxY, style: .dim) }
    }

    /// The line after the text: what follows it.
    private func drawEnd(_ page: LessonPage, in canvas: inout some Canvas, x: Int, y: Int, width: Int, height: Int, texts: Texts) {
        guard height > 0 else { return }
        let count = page.questions.count
        let answered = page.answers.count
        let text: LocalizedText
        if count == 0 {
            text = "End of the lesson"
        } else if answered == count {
            text = "End of the lesson · \(count) questions answered"
        } else {
            text = "End of the lesson · \(count) questions follow — Space"
        }
        canvas.draw("── " + texts(text), x: x, y: y, width: width, style: .dim)
    }

    private func drawQuestion(
        _ index: Int, _ question: Question, of page: LessonPage, in canvas: inout some Canvas, area: Rect, texts: Texts
    ) {
        let several = question.answerCount > 1
        canvas.draw(
            texts("Question \(index + 1) of \(plural: page.questions.count)") + (several ? " · " + texts("choose all that apply") : ""),
            x: area.x, y: area.y, width: area.width, style: .dim)
        let state: QuestionCard.State =
            viewModel.answer(to: index).map {
                $0.isChecked
                    ? .answered(chosen: $0.chosen, isRight: $0.isRight, correct: $0.correct, explanation: $0.explanation)
                    : .waiting(chosen: $0.chosen)
            }
            ?? .open(highlighted: viewModel.highlighted, picked: viewModel.picked)
        QuestionCard.draw(
            question, state: state, order: viewModel.order, in: &canvas,
            area: Rect(x: area.x, y: area.y + 1, width: area.width, height: max(0, area.height - 1)), texts: texts)
    }

    /// The text at `width`, laid out once per width; a new width keeps the first line shown
    /// at the same place of the text.
    private func layout(_ text: MarkdownText, width: Int, texts: Texts) -> IncrementalMarkdownLayout {
        if let laidOut, laidOut.width == width { return laidOut }
        let anchor = laidOut?.anchor(ofLine: top)
        let fresh = text.incrementalLayout(width: width, linksTitle: texts("Links"))
        // The first layout keeps a scroll asked for before it (the frame clamps it).
        if let anchor { top = fresh.line(forAnchor: anchor) }
        laidOut = fresh
        finishBetweenKeys(fresh)
        return fresh
    }

    /// Lines laid out at a time between keys: about a millisecond's work.
    static let layoutChunk = 200

    /// Lays the rest of the text out while nothing else is asked, a chunk at a time, so the
    /// first frame costs one screen and `PgDn` or `G` later find the lines ready. A layout
    /// replaced (a resize) is dropped, and its work with it.
    private func finishBetweenKeys(_ layout: IncrementalMarkdownLayout) {
        guard !layout.isComplete else { return }
        viewModel.tasks.run { [weak layout] in
            while let layout, !layout.isComplete {
                await Task.yield()
                layout.prepare(lines: layout.lineCount + Self.layoutChunk)
            }
        }
    }

    /// The text's lines, the blank and the end line after them.
    private func maxTop(_ laid: IncrementalMarkdownLayout) -> Int {
        max(0, laid.lineCount + 2 - textHeight)
    }

    private var isAtEnd: Bool {
        guard viewModel.page?.text != nil else { return true }
        guard let laidOut, laidOut.isComplete else { return false }
        return top >= maxTop(laidOut)
    }

    /// Before the first frame lays the text out, the wish is kept and the frame clamps it
    /// (`G` typed with the key that opened the lesson still goes to the end).
    private func scroll(by delta: Int) {
        let moved = max(0, top.addingReportingOverflow(delta).overflow ? (delta > 0 ? .max / 2 : 0) : top + delta)
        // Past what is laid out, the next frame lays out as far as it shows, and clamps.
        top = laidOut.map { $0.isComplete ? min(moved, maxTop($0)) : moved } ?? moved
        viewModel.touch()
    }

    // MARK: - Keys

    func handle(_ event: InputEvent) async -> EventResult {
        guard let page = viewModel.page else {
            if event == .key(.character("r")), isAvailable(Keys.retry) {
                await viewModel.load()
                return .handled
            }
            return .ignored
        }
        if let open = viewModel.openQuestion {
            if let result = await handleQuestion(event, open.index, page) { return result }
        }
        switch event {
        case .key(.up), .key(.character("k")), .mouse(.wheelUp):
            guard viewModel.openQuestion == nil else { return .ignored }
            scroll(by: event == .key(.up) || event == .key(.character("k")) ? -1 : -3)
        case .key(.down), .key(.character("j")), .mouse(.wheelDown):
            guard viewModel.openQuestion == nil else { return .ignored }
            scroll(by: event == .key(.down) || event == .key(.character("j")) ? 1 : 3)
        case .key(.pageUp):
            scroll(by: -max(1, textHeight - 2))
        case .key(.pageDown):
            scroll(by: max(1, textHeight - 2))
        case .key(.home), .key(.character("g")):
            scroll(by: -.max / 2)
        case .key(.end), .key(.character("G")):
            scroll(by: .max / 2)
        case .key(.character(" ")):
            return pressSpace(page)
        case .key(.character("n")):
            guard page.hasNext else { return .ignored }
            onOpenLesson(page.number + 1)
        case .key(.character("p")):
            guard page.number > 1 else { return .ignored }
            onOpenLesson(page.number - 1)
        case .key(.character("r")):
            laidOut = nil
            top = 0
            await viewModel.load()
        default:
            return .ignored
        }
        return .handled
    }

    /// Keys of an open question; `nil` for the keys that act as they do on the text.
    private func handleQuestion(_ event: InputEvent, _ index: Int, _ page: LessonPage) async -> EventResult? {
        let unanswered = viewModel.answer(to: index) == nil
        switch event {
        case .key(.escape):
            viewModel.backToText()
            return .handled
        case .key(.up), .key(.character("k")):
            guard unanswered else { return .ignored }
            viewModel.moveHighlight(-1)
            return .handled
        case .key(.down), .key(.character("j")):
            guard unanswered else { return .ignored }
            viewModel.moveHighlight(1)
            return .handled
        case .key(.character(let character)) where unanswered && character.isASCII && character.isNumber:
            guard let digit = character.wholeNumberValue, (1...6).contains(digit) else { return .ignored }
            viewModel.pick(at: digit - 1)
            return .handled
        case .key(.character(" ")) where unanswered:
            viewModel.pick(at: viewModel.highlighted)
            return .handled
        case .key(.enter):
            guard unanswered else { return .ignored }
            await viewModel.answerOpenQuestion()
            return .handled
        default:
            return nil
        }
    }

    private func pressSpace(_ page: LessonPage) -> EventResult {
        switch space {
        case Keys.more: scroll(by: max(1, textHeight - 2))
        case Keys.questions: viewModel.open(question: page.firstUnanswered ?? 0)
        case Keys.nextQuestion:
            if let open = viewModel.openQuestion { viewModel.open(question: open.index + 1) }
        case Keys.markDone:
            viewModel.markDone()
            continueAfter(page)
        case Keys.nextLesson, Keys.finish: continueAfter(page)
        default: return .ignored
        }
        return .handled
    }

    private func continueAfter(_ page: LessonPage) {
        if page.hasNext { onOpenLesson(page.number + 1) } else { onBack() }
    }

    private func isAvailable(_ key: KeyDeclaration) -> Bool {
        availability(of: key) == .available
    }
}
