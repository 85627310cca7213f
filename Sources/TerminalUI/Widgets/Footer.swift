/// The bottom row: a status message when there is one, else the keys that work here.
public enum Footer {
    public static func draw(
        in canvas: inout some Canvas,
        row: Int,
        hints: [KeyHint],
        status: StatusMessage?
    ) {
        let width = canvas.size.width
        canvas.fill(Rect(x: 0, y: row, width: width, height: 1), style: .normal)
        var x = 1
        if let status {
            let style: Style = switch status.kind {
            case .info: .normal
            case .success: .success
            case .error: .error
            }
            x += canvas.draw(status.text, x: x, y: row, width: width - 2, style: style) + 3
        }
        for hint in hints {
            let needed = hint.key.displayWidth + 1 + hint.label.displayWidth
            guard x + needed < width else { break }
            x += canvas.draw(hint.key, x: x, y: row, style: .key) + 1
            x += canvas.draw(hint.label, x: x, y: row, style: .dim) + 2
        }
    }
}
