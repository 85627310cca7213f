import Presentation
import SharedKernel
import Testing

@testable import TerminalUI

@Suite("TerminalUI: a question card, open and answered, in the room it has")
struct QuestionCardTests {
    static let question = Question(
        prompt: "You type `let total = 3 + 4` into the Swift REPL and press Return. What happens?",
        choices: ["Swift runs the line at once", "The line is compiled into an app bundle", "The REPL asks for a main()", "Nothing"],
        correct: [0], explanation: "The REPL reads, evaluates and prints each line at once.")
    static let answered = QuestionCard.State.answered(chosen: [1], isRight: false, correct: [0], explanation: question.explanation)

    func draw(_ state: QuestionCard.State, width: Int, height: Int, accessible: Bool = false) -> [String] {
        let area = Rect(x: 0, y: 0, width: width, height: height)
        if accessible {
            var canvas = AccessibleCanvas(TextCanvas(size: Size(width: width, height: height)))
            QuestionCard.draw(
                Self.question, state: state, order: ChoiceOrder(choices: [0, 1, 2, 3]), in: &canvas, area: area, texts: .english)
            return canvas.base.lines
        }
        var canvas = TextCanvas(size: Size(width: width, height: height))
        QuestionCard.draw(Self.question, state: state, order: ChoiceOrder(choices: [0, 1, 2, 3]), in: &canvas, area: area, texts: .english)
        return canvas.lines
    }

    @Test("with room, every choice, the verdict and the explanation")
    func whole() {
        let lines = draw(Self.answered, width: 60, height: 14)
        #expect(lines.contains { $0.hasPrefix(" 3   The REPL asks") }, "a choice neither right nor chosen")
        #expect(lines.contains("✗ Not quite"))
        #expect(lines.contains { $0.hasPrefix("The REPL reads") })
    }

    @Test("short of room, the verdict and the explanation stay: only the right and chosen choices, then a shorter prompt")
    func short() {
        let lines = draw(Self.answered, width: 58, height: 7)
        #expect(lines.contains("✗ Not quite"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("The REPL reads") })
        #expect(lines.contains { $0.hasPrefix(" 1 ✓ Swift runs") } && lines.contains { $0.hasPrefix(" 2 ✗ The line") })
        #expect(!lines.contains { $0.contains("main()") || $0.contains("Nothing") }, "the others left out; the numbers stay the digits")
        let spoken = draw(Self.answered, width: 58, height: 7, accessible: true)
        #expect(spoken.contains("Not quite"), "the screen reader's verdict: \(spoken)")
    }

    @Test("open, a card that does not fit keeps its first choices: nothing is hidden before the answer")
    func openShort() {
        let lines = draw(.open(highlighted: 0, picked: []), width: 58, height: 5)
        #expect(lines.contains { $0.hasPrefix(" 1 ○ Swift runs") })
    }
}
