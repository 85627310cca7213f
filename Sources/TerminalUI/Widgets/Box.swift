import Presentation

/// A dim frame with a bold title in its top edge: the overlays' box.
public enum Box {
    public static func draw(in canvas: inout some Canvas, rect: Rect, title: String) {
        let inner = rect.width - 2
        guard inner > 0, rect.height >= 2 else { return }
        canvas.write("┌" + String(repeating: "─", count: inner) + "┐", x: rect.x, y: rect.y, style: .dim)
        canvas.draw(" \(title) ", x: rect.x + 2, y: rect.y, width: inner - 2, style: .bold)
        for row in rect.y + 1..<rect.maxY - 1 {
            canvas.write("│", x: rect.x, y: row, style: .dim)
            canvas.write("│", x: rect.maxX - 1, y: row, style: .dim)
        }
        canvas.write("└" + String(repeating: "─", count: inner) + "┘", x: rect.x, y: rect.maxY - 1, style: .dim)
    }
}
