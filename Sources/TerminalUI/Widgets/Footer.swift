import Presentation
import SharedKernel

/// The bottom row: a status message when there is one, then the keys that work here. The
/// message never takes the whole row: `pinned` (the help key) always shows at the right edge.
public enum Footer {
    /// Returns the column after the status message, if one was drawn (where the accessible
    /// mode's cursor waits for a question's answer).
    @discardableResult
    public static func draw(
        in canvas: inout some Canvas,
        row: Int,
        hints: [KeyHint],
        status: StatusMessage?,
        pinned: KeyHint? = nil,
        texts: Texts
    ) -> Int? {
        let width = canvas.size.width
        canvas.fill(Rect(x: 0, y: row, width: width, height: 1), style: .normal)
        var right = width - 1
        if let pinned {
            let label = texts(pinned.label)
            let key = pinned.shownKey(texts)
            let pinnedWidth = key.displayWidth + 1 + label.displayWidth
            let x = width - 1 - pinnedWidth
            canvas.draw(key, x: x, y: row, style: .key)
            canvas.draw(label, x: x + key.displayWidth + 1, y: row, style: .dim)
            right = x - 2
        }
        var x = 1
        var statusEnd: Int?
        if let status {
            let style: Style =
                switch status.kind {
                case .info: .normal
                case .success: .success
                case .error: .error
                }
            // All the row but the help key, which always stays; the other keys follow if
            // there is room.
            let room = right - x
            x += canvas.draw(status.displayText(fitting: room, texts: texts), x: x, y: row, width: room, style: style)
            statusEnd = x
            x += 3
        }
        // Where the hints up to the last with a shorter label do not all fit, those use it
        // (the four grades of a card before the keys after them).
        let shortening = hints.lastIndex { $0.short != nil }.map { hints[...$0] } ?? []
        let whole = shortening.reduce(0) { $0 + $1.shownKey(texts).displayWidth + 1 + texts($1.label).displayWidth + 2 }
        let short = x + whole - 2 > right
        for hint in hints {
            let label = texts(short ? hint.short ?? hint.label : hint.label)
            let key = hint.shownKey(texts)
            let needed = key.displayWidth + 1 + label.displayWidth
            guard x + needed <= right else { break }
            x += canvas.draw(key, x: x, y: row, style: .key) + 1
            x += canvas.draw(label, x: x, y: row, style: .dim) + 2
        }
        return statusEnd
    }
}
