import Presentation
import SharedKernel
import TerminalUI

/// Tab 5: the cards due today, one at a time. Answer again (`1`–`6`, or ↑↓ and Space, then
/// Enter), read the explanation, then say how well it came back: `a` again, `h` hard, `g`
/// good, `e` easy. The digits pick here while a card shows; `Alt-1`…`Alt-5` switch tabs.
@MainActor
final class ReviewScreen: Screen {
    enum Keys {
        static let choice = KeyDeclaration(
            "↑↓", "choice", help: "move between the choices (also k j)",
            actions: [KeyAction("review.up", .up, title: "Previous choice"), KeyAction("review.down", .down, title: "Next choice")])
        static let choose = KeyDeclaration(
            "1-6", "choose", help: "pick an answer by its number (several where the card says so)",
            keys: (1...6).map { .character(Character(String($0))) })
        static let pick = KeyDeclaration("Space", "pick", help: "pick the choice (several where the card says so)", action: "review.pick")
        static let nextCard = KeyDeclaration(
            "Space", "next card", help: "a card reviewed in another terminal: show the next", action: "review.next_card")
        static let answer = KeyDeclaration("Enter", "answer", help: "answer the card, and see the explanation", action: "review.answer")
        static let again = KeyDeclaration(
            "a", "again", help: "after the answer: forgotten, see it again in a few minutes", action: "review.again")
        static let hard = KeyDeclaration("h", "hard", help: "after the answer: recalled with difficulty", action: "review.hard")
        static let good = KeyDeclaration(
            "g", "good", help: "after the answer: recalled (Enter: good if right, again if not)", action: "review.good")
        static let easy = KeyDeclaration("e", "easy", help: "after the answer: recalled at once; a longer wait", action: "review.easy")
        static let undo = KeyDeclaration(
            "z", "undo", help: "take back the last grade of this session: the card comes back to be answered again", action: "review.undo")
        static let memory = KeyDeclaration(
            "m", "memory", help: "the cards due in the next 14 days, the true retention and the streak (m once more: the card)",
            action: "review.memory")
        static let retry = KeyDeclaration("r", "reload", help: "read the cards due again (retry after an error)", action: "review.reload")
    }

    /// The grade each grade key gives.
    static let grades: [KeyDeclaration: ReviewGrade] = [Keys.again: .again, Keys.hard: .hard, Keys.good: .good, Keys.easy: .easy]

    nonisolated static let declaredKeys = [
        Keys.choose, Keys.choice, Keys.pick, Keys.answer, Keys.nextCard, Keys.again, Keys.hard, Keys.good, Keys.easy, Keys.undo,
        Keys.memory, Keys.retry,
    ]
    static let emptyText: LocalizedText = "Nothing to review today — answer a lesson's questions and they come back here"

    let viewModel: ReviewViewModel

    init(viewModel: ReviewViewModel) {
        self.viewModel = viewModel
    }

    var keys: [KeyDeclaration] { Self.declaredKeys }

    func availability(of key: KeyDeclaration) -> KeyAvailability {
        if key == Keys.retry {
            switch viewModel.state {
            case .loaded, .empty, .error: return .available
            case .idle, .loading: return .unavailable(reason: "The cards are being read")
            }
        }
        let ready: Bool
        switch viewModel.state {
        case .loaded, .empty: ready = true
        case .idle, .loading, .error: ready = false
        }
        if key == Keys.undo {
            guard ready else { return .dormant }
            return viewModel.graded.isEmpty ? .unavailable(reason: ReviewViewModel.nothingToUndo) : .available
        }
        if key == Keys.memory {
            // With nothing in front the picture shows by itself.
            return ready && viewModel.card != nil ? .available : .dormant
        }
        guard viewModel.card != nil, !viewModel.showsMemory else { return .dormant }
        if viewModel.reviewedElsewhere {
            switch key {
            case Keys.nextCard: return .available
            case Keys.choose, Keys.choice, Keys.answer, Keys.again, Keys.hard, Keys.good, Keys.easy:
                return .unavailable(reason: ReviewViewModel.reviewedElsewhereText)
            default: return .dormant
            }
        }
        let answered = viewModel.revealed != nil
        switch key {
        case Keys.choose, Keys.choice, Keys.pick: return answered ? .dormant : .available
        case Keys.answer:
            return answered ? .dormant : viewModel.picked.isEmpty ? .unavailable(reason: ReviewViewModel.pickFirst) : .available
        case Keys.again, Keys.hard, Keys.good, Keys.easy: return answered ? .available : .unavailable(reason: "Answer the card first")
        default: return .dormant
        }
    }

    /// After the answer, each grade key says when the card would come back (`again 10m`);
    /// while the memory picture shows, `m` goes back to the card.
    func footerLabel(of key: KeyDeclaration) -> LocalizedText {
        if key == Keys.memory, viewModel.showsMemory, viewModel.card != nil { return "card" }
        guard let grade = Self.grades[key], viewModel.revealed != nil, let interval = viewModel.comingBackAfter[grade] else {
            return key.label
        }
        return "\(key.label) \(IntervalText.format(seconds: interval))"
    }

    /// In a narrow footer a grade key says only when the card comes back (`a 10m`): the four
    /// fit where their words would not.
    func footerShortLabel(of key: KeyDeclaration) -> LocalizedText? {
        guard let grade = Self.grades[key], viewModel.revealed != nil, let interval = viewModel.comingBackAfter[grade] else { return nil }
        return IntervalText.format(seconds: interval)
    }

    /// While a card shows, the digits pick its answers, never switch tabs.
    var takesDigits: Bool { viewModel.card != nil }

    var isAnimating: Bool { viewModel.state.isLoading }

    func accepts(_ event: InputEvent) -> Bool {
        switch viewModel.state {
        case .idle, .loading: false
        case .loaded, .empty, .error: !viewModel.isSaving
        }
    }

    /// Reads the deck each time the tab is shown: the day, and other terminals, move it.
    func appear() {
        let viewModel = self.viewModel
        viewModel.tasks.run { await viewModel.load() }
    }

    func disappear() {
        viewModel.tasks.cancelAll()
        viewModel.stopWaiting()
    }

    func settle() async {
        await viewModel.tasks.settle()
    }

    // MARK: - Drawing

    func draw(in canvas: inout some Canvas, frame: Frame) {
        let area = frame.area
        let texts = frame.texts
        let content = area.insetBy(horizontal: 1)
        var x = content.x + canvas.draw(texts("Review"), x: content.x, y: content.y, style: .bold)
        let deck = viewModel.state.value
        let reviewed = viewModel.reviewedToday
        // The counts once the deck is read (or known empty): zeros while it loads would be untrue.
        let known: Bool
        switch viewModel.state {
        case .loaded, .empty: known = true
        case .idle, .loading, .error: known = deck != nil
        }
        let counts =
            texts("\(deck?.newCount ?? 0) new") + " · " + texts("\(deck?.learningCount ?? 0) learning") + " · "
            + texts("\(deck?.dueCount ?? 0) due")
        if known {
            x += canvas.draw(
                "  " + counts + (reviewed > 0 ? " · " + texts("\(reviewed) reviewed") : ""), x: x, y: content.y, style: .dim)
        }
        let body = Rect(x: content.x, y: content.y + 2, width: min(content.width, 100), height: max(0, content.height - 2))
        // Nothing now, but a card coming back: not "nothing today".
        var empty: [LocalizedText] =
            reviewed > 0
            ? ["All done for now: \(reviewed) reviewed."] : [viewModel.comingBack == nil ? Self.emptyText : "Nothing to review right now"]
        if let back = viewModel.comingBack {
            empty.append("A card in its steps comes back at \(verbatim: viewModel.clockTime(of: back))")
        } else if reviewed > 0 {
            empty.append("More come due tomorrow.")
        }
        guard viewModel.memoryShown else {
            StateView.draw(viewModel.state, in: &canvas, area: body, tick: frame.tick, texts: texts, empty: empty) { canvas, deck in
                guard let card = deck.cards.first else { return }
                drawCard(card, in: &canvas, area: body, texts: texts)
            }
            return
        }
        // The picture below what the tab has to say: that all is done, or how to go back.
        let said: [LocalizedText] = viewModel.card == nil ? empty : ["m: back to the card"]
        var y = body.y
        for (index, line) in said.enumerated() where y < body.maxY {
            for row in TextWrapper.wrap(texts(line), width: max(1, body.width)) where y < body.maxY {
                canvas.draw(row, x: body.x, y: y, width: body.width, style: index == 0 ? .bold : .dim)
                y += 1
            }
        }
        canvas.markFocus(x: body.x, y: body.y)
        y += 1
        guard let memory = viewModel.memory, y < body.maxY else { return }
        MemoryView.draw(memory, in: &canvas, area: Rect(x: body.x, y: y, width: body.width, height: body.maxY - y), texts: texts)
    }

    private func drawCard(_ card: ReviewCard, in canvas: inout some Canvas, area: Rect, texts: Texts) {
        let several = card.question.answerCount > 1
        canvas.draw(
            "\(card.courseTitle) · \(card.lessonTitle)" + (several ? " · " + texts("choose all that apply") : ""), x: area.x,
            y: area.y, width: area.width, style: .dim)
        let state: QuestionCard.State =
            viewModel.revealed.map {
                .answered(chosen: $0.chosen, isRight: $0.isRight, correct: card.question.correct, explanation: card.question.explanation)
            }
            ?? .open(highlighted: viewModel.highlighted, picked: viewModel.picked)
        let body = Rect(x: area.x, y: area.y + 1, width: area.width, height: max(0, area.height - 3))
        QuestionCard.draw(card.question, state: state, order: viewModel.order, in: &canvas, area: body, texts: texts)
        // A new card: a screen reader reads its question first, then follows the choices.
        if viewModel.revealed == nil, !viewModel.hasTouchedChoices { canvas.markFocus(x: body.x, y: body.y) }
        if viewModel.reviewedElsewhere, area.height > 2 {
            canvas.draw(texts(ReviewViewModel.reviewedElsewhereText), x: area.x, y: area.maxY - 1, width: area.width, style: .bold)
        } else if viewModel.revealed != nil, area.height > 2 {
            canvas.draw(
                texts("How well did it come back?"), x: area.x, y: area.maxY - 1, width: area.width,
                style: .dim)
        }
    }

    // MARK: - Keys

    func handle(_ event: InputEvent) async -> EventResult {
        if event == .key(.character("r")) {
            guard availability(of: Keys.retry) == .available else { return .ignored }
            await viewModel.load()
            return .handled
        }
        if event == .key(.character("z")) {
            guard availability(of: Keys.undo) == .available else { return .ignored }
            await viewModel.undo()
            return .handled
        }
        if event == .key(.character("m")) {
            guard availability(of: Keys.memory) == .available else { return .ignored }
            await viewModel.toggleMemory()
            return .handled
        }
        guard viewModel.card != nil, !viewModel.showsMemory else { return .ignored }
        if viewModel.reviewedElsewhere {
            guard event == .key(.character(" ")) else { return .ignored }
            await viewModel.skipReviewedElsewhere()
            return .handled
        }
        let answered = viewModel.revealed != nil
        if !answered {
            switch event {
            case .key(.up), .key(.character("k")): viewModel.moveHighlight(-1)
            case .key(.down), .key(.character("j")): viewModel.moveHighlight(1)
            case .key(.character(" ")): viewModel.pickHighlighted()
            case .key(.character(let character)) where character.isASCII && character.isNumber:
                guard let digit = character.wholeNumberValue, (1...6).contains(digit) else { return .ignored }
                viewModel.pick(at: digit - 1)
            case .key(.enter): viewModel.reveal()
            default: return .ignored
            }
            return .handled
        }
        let grades: [Character: ReviewGrade] = ["a": .again, "h": .hard, "g": .good, "e": .easy]
        switch event {
        case .key(.enter): if let grade = viewModel.suggestedGrade { await viewModel.grade(grade) }
        case .key(.character(let key)) where grades[key] != nil: await viewModel.grade(grades[key] ?? .good)
        default: return .ignored
        }
        return .handled
    }
}
