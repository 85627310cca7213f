import Presentation
import SharedKernel

/// A multiple-choice question drawn the same in the reader and the review tab: the prompt and
/// the explanation as Markdown (`code` in a question reads as code), the choices with their
/// marks, and once answered which were right.
public enum QuestionCard {
    public enum State: Hashable, Sendable {
        /// Not answered: the position under the arrows (in the order shown), and the choices
        /// picked (the question's own indices).
        case open(highlighted: Int, picked: Set<Int>)
        /// Answered: what was chosen, and what the answer revealed (the right choices, why).
        case answered(chosen: Set<Int>, isRight: Bool, correct: Set<Int>, explanation: String)
    }

    /// Draws from the top of `area`, the choices in `order`, each with its number `1`–`6` (the
    /// digit that picks it). Rows past the area are left out.
    public static func draw(
        _ question: Question, state: State, order: ChoiceOrder, in canvas: inout some Canvas, area: Rect, texts: Texts
    ) {
        var y = area.y
        y += drawMarkdown(question.prompt, style: .bold, in: &canvas, x: area.x, y: y, width: area.width, maxY: area.maxY)
        y += 1
        for (position, choice) in order.choices.enumerated() where y < area.maxY && question.choices.indices.contains(choice) {
            let text = question.choices[choice]
            let mark: String
            var style: Style = .normal
            switch state {
            case .answered(let chosen, _, let correct, _):
                let right = correct.contains(choice)
                mark =
                    canvas.isAccessible
                    ? (right ? texts("right") : (chosen.contains(choice) ? texts("wrong") : ""))
                    : (right ? "✓" : (chosen.contains(choice) ? "✗" : " "))
                style = right ? .success : (chosen.contains(choice) ? .error : .dim)
            case .open(let highlighted, let picked):
                mark = canvas.isAccessible ? (picked.contains(choice) ? "[x]" : "[ ]") : (picked.contains(choice) ? "●" : "○")
                if position == highlighted { style = .selection }
            }
            let prefix = " \(position + 1) \(mark) "
            let lines = TextWrapper.wrap(plain(text), width: max(1, area.width - prefix.displayWidth))
            for (number, line) in lines.enumerated() where y < area.maxY {
                if style == .selection {
                    canvas.fill(Rect(x: area.x, y: y, width: area.width, height: 1), style: .selection)
                    if number == 0 { canvas.markFocus(x: area.x, y: y) }
                }
                canvas.draw(number == 0 ? prefix : String(repeating: " ", count: prefix.displayWidth), x: area.x, y: y, style: style)
                canvas.draw(line, x: area.x + prefix.displayWidth, y: y, width: area.width - prefix.displayWidth, style: style)
                y += 1
            }
        }
        guard case .answered(_, let isRight, _, let explanation) = state, y + 1 < area.maxY else { return }
        y += 1
        let verdict = isRight ? texts("Right") : texts("Not quite")
        let mark = canvas.isAccessible ? "" : (isRight ? "✓ " : "✗ ")
        canvas.draw(mark + verdict, x: area.x, y: y, style: isRight ? .success : .error)
        canvas.markFocus(x: area.x, y: y)
        y += 1
        _ = drawMarkdown(explanation, style: nil, in: &canvas, x: area.x, y: y, width: area.width, maxY: area.maxY)
    }

    /// Markdown in at most the rows up to `maxY`; `style` replaces the plain text's. Returns
    /// the rows used.
    private static func drawMarkdown(
        _ text: String, style: Style?, in canvas: inout some Canvas, x: Int, y: Int, width: Int, maxY: Int
    ) -> Int {
        let laid = MarkdownText(parsing: text).layout(width: width)
        let rows = max(0, min(laid.lines.count, maxY - y))
        for (row, line) in laid.lines.prefix(rows).enumerated() {
            var column = x
            for span in line.spans where column < x + width {
                let shown = style != nil && span.style == .normal ? style ?? .normal : span.style
                column += canvas.draw(span.text, x: column, y: y + row, width: x + width - column, style: shown)
            }
        }
        return rows
    }

    /// A choice as one line of text: inline code keeps its text, without the backticks.
    static func plain(_ text: String) -> String {
        TerminalText.sanitize(text.contains("`") ? String(text.filter { $0 != "`" }) : text)
    }
}
