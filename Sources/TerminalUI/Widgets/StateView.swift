import Presentation
import SharedKernel

/// Draws the non-content states every loading screen shares, centred in its area.
public enum StateView {
    static let loadingText: LocalizedText = "Loading…"
    static let retryText: LocalizedText = "Press r to retry"

    /// Draws whichever state `state` is in: nothing, the spinner, the empty message (its
    /// first line bold), the error with its retry hint, or the content through `loaded`.
    public static func draw<Value: Sendable, C: Canvas>(
        _ state: ViewState<Value>,
        in canvas: inout C,
        area: Rect,
        tick: Int,
        texts: Texts,
        empty: [LocalizedText],
        loaded: (inout C, Value) -> Void
    ) {
        switch state {
        case .idle:
            break
        case .loading:
            drawLoading(in: &canvas, area: area, tick: tick, texts: texts)
        case .empty:
            drawMessage(empty.map { texts($0) }, in: &canvas, area: area, styles: [.bold, .dim])
        case .error(let message):
            drawError(message, in: &canvas, area: area, texts: texts)
        case .loaded(let value):
            loaded(&canvas, value)
        }
    }

    /// A spinner and `Loading…`.
    public static func drawLoading(in canvas: inout some Canvas, area: Rect, tick: Int, texts: Texts) {
        let row = area.y + max(0, area.height / 2 - 1)
        let text = canvas.isAccessible ? texts(loadingText) : "\(Spinner.frame(tick: tick)) \(texts(loadingText))"
        canvas.drawCentered(text, in: area, y: row, style: .dim)
        canvas.markFocus(x: area.x + max(0, (area.width - text.displayWidth) / 2), y: row)
    }

    /// An error message and `Press r to retry`.
    public static func drawError(_ message: LocalizedText, in canvas: inout some Canvas, area: Rect, texts: Texts) {
        drawMessage([texts(message), texts(retryText)], in: &canvas, area: area, styles: [.error, .dim])
    }

    /// Centred lines of text, e.g. an empty state and its next step.
    public static func drawMessage(_ lines: [String], in canvas: inout some Canvas, area: Rect, styles: [Style] = []) {
        let wrapped = lines.enumerated().flatMap { index, line in
            TextWrapper.wrap(line, width: max(1, area.width - 4)).map { ($0, styles.indices.contains(index) ? styles[index] : .normal) }
        }
        let top = area.y + max(0, (area.height - wrapped.count) / 2 - 1)
        for (offset, (line, style)) in wrapped.enumerated() where top + offset < area.maxY {
            canvas.drawCentered(line, in: area, y: top + offset, style: style)
        }
        // What a screen reader should read first: the message, in place of a list.
        if let first = wrapped.first, top < area.maxY {
            canvas.markFocus(x: area.x + max(0, (area.width - first.0.displayWidth) / 2), y: top)
        }
    }
}
