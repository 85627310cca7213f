import Presentation
import SharedKernel
import TerminalUI

/// Tab 5: the cards due today, one at a time. Answer again (↑↓, Space, Enter), read the
/// explanation, then say how well it came back: `a` again, `h` hard, `g` good, `e` easy.
@MainActor
final class ReviewScreen: Screen {
    enum Keys {
        static let choice = KeyDeclaration("↑↓", "choice", help: "move between the choices (also k j)")
        static let pick = KeyDeclaration("Space", "pick", help: "pick the choice (several where the card says so)")
        static let answer = KeyDeclaration("Enter", "answer", help: "answer the card, and see the explanation")
        static let again = KeyDeclaration("a", "again", help: "after the answer: forgotten, see it again tomorrow")
        static let hard = KeyDeclaration("h", "hard", help: "after the answer: recalled with difficulty")
        static let good = KeyDeclaration("g", "good", help: "after the answer: recalled (Enter: good if right, again if not)")
        static let easy = KeyDeclaration("e", "easy", help: "after the answer: recalled at once; a longer wait")
        static let retry = KeyDeclaration("r", "reload", help: "read the cards due again (retry after an error)")
    }

    nonisolated static let declaredKeys = [
        Keys.choice, Keys.pick, Keys.answer, Keys.again, Keys.hard, Keys.good, Keys.easy, Keys.retry,
    ]
    static let emptyText = "Nothing to review today — answer a lesson's questions and they come back here"

    private let viewModel: ReviewViewModel

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
        guard viewModel.card != nil else { return .dormant }
        let answered = viewModel.revealed != nil
        switch key {
        case Keys.choice, Keys.pick: return answered ? .dormant : .available
        case Keys.answer: return answered ? .dormant : .available
        case Keys.again, Keys.hard, Keys.good, Keys.easy: return answered ? .available : .unavailable(reason: "Answer the card first")
        default: return .dormant
        }
    }

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
    }

    func settle() async {
        await viewModel.tasks.settle()
    }

    // MARK: - Drawing

    func draw(in canvas: inout some Canvas, frame: Frame) {
        let area = frame.area
        let content = area.insetBy(horizontal: 1)
        var x = content.x + canvas.draw("Review", x: content.x, y: content.y, style: .bold)
        let due = viewModel.state.value?.due ?? 0
        let reviewed = viewModel.reviewedToday
        x += canvas.draw(
            "  \(due) due today" + (reviewed > 0 ? " · \(reviewed) reviewed" : ""), x: x, y: content.y, style: .dim)
        let body = Rect(x: content.x, y: content.y + 2, width: min(content.width, 100), height: max(0, content.height - 2))
        let empty = reviewed > 0 ? ["All done for today: \(reviewed) reviewed. More come due tomorrow."] : [Self.emptyText]
        StateView.draw(viewModel.state, in: &canvas, area: body, tick: frame.tick, empty: empty) { canvas, deck in
            guard let card = deck.cards.first else { return }
            drawCard(card, in: &canvas, area: body)
        }
    }

    private func drawCard(_ card: ReviewCard, in canvas: inout some Canvas, area: Rect) {
        var y = area.y
        let several = card.question.correct.count > 1
        canvas.draw(
            "\(card.courseTitle) · \(card.lessonTitle)" + (several ? " · choose all that apply" : ""), x: area.x, y: y, width: area.width,
            style: .dim)
        y += 1
        for line in TextWrapper.wrap(TerminalText.sanitize(card.question.prompt), width: area.width) where y < area.maxY {
            canvas.draw(line, x: area.x, y: y, width: area.width, style: .bold)
            y += 1
        }
        y += 1
        let revealed = viewModel.revealed
        for (choice, text) in card.question.choices.enumerated() where y < area.maxY {
            let mark: String
            var style: Style = .normal
            if let revealed {
                let right = card.question.correct.contains(choice)
                let chosen = revealed.chosen.contains(choice)
                mark = right ? "✓" : (chosen ? "✗" : " ")
                style = right ? .success : (chosen ? .error : .dim)
            } else {
                mark = viewModel.picked.contains(choice) ? "●" : "○"
                if choice == viewModel.highlighted { style = .selection }
            }
            let prefix = " \(mark) "
            let lines = TextWrapper.wrap(TerminalText.sanitize(text), width: max(1, area.width - prefix.displayWidth))
            for (number, line) in lines.enumerated() where y < area.maxY {
                if style == .selection { canvas.fill(Rect(x: area.x, y: y, width: area.width, height: 1), style: .selection) }
                canvas.draw(number == 0 ? prefix : String(repeating: " ", count: prefix.displayWidth), x: area.x, y: y, style: style)
                canvas.draw(line, x: area.x + prefix.displayWidth, y: y, width: area.width - prefix.displayWidth, style: style)
                y += 1
            }
        }
        guard let revealed, y + 1 < area.maxY else { return }
        y += 1
        canvas.draw(revealed.isRight ? "✓ Right" : "✗ Not quite", x: area.x, y: y, style: revealed.isRight ? .success : .error)
        y += 1
        for line in TextWrapper.wrap(TerminalText.sanitize(card.question.explanation), width: area.width) where y < area.maxY {
            canvas.draw(line, x: area.x, y: y, width: area.width)
            y += 1
        }
        if y + 1 < area.maxY {
            canvas.draw(
                "How well did it come back?  a again · h hard · g good · e easy", x: area.x, y: y + 1, width: area.width, style: .dim)
        }
    }

    // MARK: - Keys

    func handle(_ event: InputEvent) async -> EventResult {
        if event == .key(.character("r")) {
            guard availability(of: Keys.retry) == .available else { return .ignored }
            await viewModel.load()
            return .handled
        }
        guard viewModel.card != nil else { return .ignored }
        let answered = viewModel.revealed != nil
        if !answered {
            switch event {
            case .key(.up), .key(.character("k")): viewModel.moveHighlight(-1)
            case .key(.down), .key(.character("j")): viewModel.moveHighlight(1)
            case .key(.character(" ")): viewModel.pickHighlighted()
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
