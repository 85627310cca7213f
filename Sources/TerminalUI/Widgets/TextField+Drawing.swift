import Presentation
import SharedKernel

extension TextField {
    /// Draws the visible part of the text in `width` columns at `x`, `y`; when focused, puts
    /// the terminal cursor at the insertion point. Text wider than the field scrolls so the
    /// cursor stays in view. Drawing changes nothing, so it can run inside a render.
    public func draw(in canvas: inout some Canvas, x: Int, y: Int, width: Int, focused: Bool, style: Style = .normal) {
        let style = isAllSelected && focused ? (style == .selection ? .normal : .selection) : style
        guard width > 0 else { return }
        let characters = Array(TerminalText.sanitize(text))
        let scrollOffset = Self.offset(keeping: min(cursor, characters.count), in: characters, width: width)
        var shown = ""
        var used = 0
        for character in characters.dropFirst(scrollOffset) {
            let characterWidth = character.displayWidth
            if used + characterWidth > width { break }
            shown.append(character)
            used += characterWidth
        }
        canvas.write(shown, x: x, y: y, style: style)
        if focused {
            let before = characters[scrollOffset..<min(cursor, characters.count)].reduce(0) { $0 + $1.displayWidth }
            canvas.setCursor((x: x + min(before, width - 1), y: y))
        }
    }

    /// The first visible character: the smallest that leaves room for the cursor's cell.
    fileprivate static func offset(keeping cursor: Int, in characters: [Character], width: Int) -> Int {
        var offset = 0
        var widthBeforeCursor = characters[0..<cursor].reduce(0) { $0 + $1.displayWidth }
        while offset < cursor && widthBeforeCursor > width - 1 {
            widthBeforeCursor -= characters[offset].displayWidth
            offset += 1
        }
        return offset
    }
}
