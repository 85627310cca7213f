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
        /// Answered offline: what was chosen, kept to be checked when the server answers.
        case waiting(chosen: Set<Int>)
    }

    /// Draws from the top of `area`, the choices in `order`, each with its number `1`–`6` (the
    /// digit that picks it). Once answered, the verdict and the explanation come first: where
    /// the whole card does not fit, only the right and the chosen choices are drawn, then the
    /// prompt is shortened. Rows past the area are left out.
    public static func draw(
        _ question: Question, state: State, order: ChoiceOrder, in canvas: inout some Canvas, area: Rect, texts: Texts
    ) {
        let accessible = canvas.isAccessible
        var shown = order.choices.enumerated().filter { question.choices.indices.contains($0.element) }.map {
            (position: $0.offset, choice: $0.element)
        }
        let lines = { (position: Int, choice: Int) -> (prefix: String, style: Style, lines: [String]) in
            let (mark, style) = Self.mark(of: choice, at: position, state: state, accessible: accessible, texts: texts)
            let prefix = " \(position + 1) \(mark) "
            return (prefix, style, TextWrapper.wrap(plain(question.choices[choice]), width: max(1, area.width - prefix.displayWidth)))
        }
        let prompt = MarkdownText(parsing: question.prompt).layout(width: area.width).lines.count
        var promptRows = prompt
        if case .answered(let chosen, _, let correct, let explanation) = state {
            let tail = 2 + MarkdownText(parsing: explanation).layout(width: area.width).lines.count
            let choiceRows = { shown.reduce(0) { $0 + lines($1.position, $1.choice).lines.count } }
            if prompt + 1 + choiceRows() + tail > area.height {
                shown = shown.filter { correct.contains($0.choice) || chosen.contains($0.choice) }
            }
            promptRows = max(1, min(prompt, area.height - 1 - choiceRows() - tail))
        }
        var y = area.y
        y += drawMarkdown(
            question.prompt, style: .bold, in: &canvas, x: area.x, y: y, width: area.width, maxY: min(area.maxY, area.y + promptRows))
        y += 1
        for (position, choice) in shown where y < area.maxY {
            let (prefix, style, wrapped) = lines(position, choice)
            for (number, line) in wrapped.enumerated() where y < area.maxY {
                if style == .selection {
                    canvas.fill(Rect(x: area.x, y: y, width: area.width, height: 1), style: .selection)
                    if number == 0 { canvas.markFocus(x: area.x, y: y) }
                }
                canvas.draw(number == 0 ? prefix : String(repeating: " ", count: prefix.displayWidth), x: area.x, y: y, style: style)
                canvas.draw(line, x: area.x + prefix.displayWidth, y: y, width: area.width - prefix.displayWidth, style: style)
                y += 1
            }
        }
        if case .waiting = state, y + 1 < area.maxY {
            canvas.markFocus(x: area.x, y: y + 1)
            let said = (accessible ? "" : "⇡ ") + texts("Answer saved — checked when back online")
            for (row, line) in TextWrapper.wrap(said, width: max(1, area.width)).enumerated() where y + 1 + row < area.maxY {
                canvas.draw(line, x: area.x, y: y + 1 + row, width: area.width, style: .accent)
            }
            return
        }
        guard case .answered(_, let isRight, _, let explanation) = state, y + 1 < area.maxY else { return }
        y += 1
        let verdict = isRight ? texts("Right") : texts("Not quite")
        let mark = accessible ? "" : (isRight ? "✓ " : "✗ ")
        canvas.draw(mark + verdict, x: area.x, y: y, style: isRight ? .success : .error)
        canvas.markFocus(x: area.x, y: y)
        y += 1
        _ = drawMarkdown(explanation, style: nil, in: &canvas, x: area.x, y: y, width: area.width, maxY: area.maxY)
    }

    /// A choice's mark and style: picked or not while open (the highlighted one selected);
    /// right, wrong or neither once answered (words in the accessible mode).
    private static func mark(of choice: Int, at position: Int, state: State, accessible: Bool, texts: Texts) -> (String, Style) {
        switch state {
        case .answered(let chosen, _, let correct, _):
            let right = correct.contains(choice)
            let mark =
                accessible
                ? (right ? texts("right") : (chosen.contains(choice) ? texts("wrong") : ""))
                : (right ? "✓" : (chosen.contains(choice) ? "✗" : " "))
            return (mark, right ? .success : (chosen.contains(choice) ? .error : .dim))
        case .waiting(let chosen):
            let mark = accessible ? (chosen.contains(choice) ? texts("chosen") : "") : (chosen.contains(choice) ? "●" : " ")
            return (mark, chosen.contains(choice) ? .normal : .dim)
        case .open(let highlighted, let picked):
            let mark = accessible ? (picked.contains(choice) ? "[x]" : "[ ]") : (picked.contains(choice) ? "●" : "○")
            return (mark, position == highlighted ? .selection : .normal)
        }
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
