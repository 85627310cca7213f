import Presentation
import TerminalUI
import Testing

@Suite("In-memory canvas")
struct TextCanvasTests {
    @Test("text lands at its cell and wide characters take two columns")
    func wideCharacters() {
        var canvas = TextCanvas(size: Size(width: 12, height: 2))

        canvas.draw("中文x", x: 1, y: 0)
        canvas.draw("abc", x: 0, y: 1)

        #expect(canvas.lines == [" 中文x", "abc"])
        #expect(canvas.lines[0].displayWidth == 6)
    }

    @Test("drawing clips at the right edge with an ellipsis")
    func clipsAtEdge() {
        var canvas = TextCanvas(size: Size(width: 8, height: 1))

        let used = canvas.draw("Catalog of courses", x: 2, y: 0)

        #expect(canvas.lines == ["  Catal…"])
        #expect(used == 6)
    }

    @Test("a width limit cuts before the edge")
    func widthLimit() {
        var canvas = TextCanvas(size: Size(width: 20, height: 1))

        canvas.draw("Instructor name", x: 0, y: 0, width: 8)
        canvas.draw("|", x: 8, y: 0)

        #expect(canvas.lines == ["Instruc…|"])
    }

    @Test("escape sequences in data never reach the canvas")
    func sanitizes() {
        var canvas = TextCanvas(size: Size(width: 20, height: 1))

        canvas.draw("\u{1B}[2JHello\u{07}", x: 0, y: 0)

        #expect(canvas.lines == ["Hello"])
    }

    @Test("overwriting half of a wide character blanks the other half")
    func overwriteWide() {
        var canvas = TextCanvas(size: Size(width: 6, height: 1))
        canvas.draw("中文", x: 0, y: 0)

        canvas.draw("x", x: 1, y: 0)

        #expect(canvas.lines == [" x文"])
    }

    @Test("fill paints the style across the rectangle")
    func fill() {
        var canvas = TextCanvas(size: Size(width: 4, height: 2))

        canvas.fill(Rect(x: 1, y: 1, width: 2, height: 1), style: .selection)

        #expect(canvas.style(atX: 1, y: 1) == .selection)
        #expect(canvas.style(atX: 2, y: 1) == .selection)
        #expect(canvas.style(atX: 3, y: 1) == .normal)
        #expect(canvas.style(atX: 1, y: 0) == .normal)
    }
}
