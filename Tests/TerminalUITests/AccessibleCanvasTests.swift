import SharedKernel
import Testing

@testable import Presentation
@testable import TerminalUI

@Suite("The accessible mode's canvas")
struct AccessibleCanvasTests {
    @Test("box drawing, blocks and spinner frames become spaces, and nothing else moves")
    func plain() {
        var canvas = AccessibleCanvas(TextCanvas(size: Size(width: 30, height: 4)))
        Box.draw(in: &canvas, rect: Rect(x: 0, y: 0, width: 30, height: 4), title: "Keys")
        canvas.draw(ProgressBar.text(percent: 40, width: 15) + " ⠋ done", x: 2, y: 1)

        let lines = canvas.base.lines
        #expect(lines[0] == "   Keys")
        #expect(lines[1] == "              40%   done")
        #expect(!lines.joined().unicodeScalars.contains { (0x2500...0x259F).contains($0.value) || (0x2800...0x28FF).contains($0.value) })
        #expect(canvas.isAccessible && !TextCanvas(size: Size(width: 1, height: 1)).isAccessible)
    }

    @Test("the selected row of a list, a loading message and a question's choice are where the focus is")
    func focus() {
        var canvas = AccessibleCanvas(TextCanvas(size: Size(width: 20, height: 10)))
        var state = ListState()
        state.select(3, itemCount: 10, pageSize: 5)
        ListView.draw(in: &canvas, area: Rect(x: 1, y: 2, width: 18, height: 5), itemCount: 10, state: state) { _, _, _, _ in }
        #expect(canvas.focus.map { [$0.x, $0.y] } == [1, 5])

        var loading = AccessibleCanvas(TextCanvas(size: Size(width: 20, height: 5)))
        StateView.drawLoading(in: &loading, area: Rect(x: 0, y: 0, width: 20, height: 5), tick: 3, texts: .english)
        #expect(loading.base.lines[1] == "      Loading…", "no spinner")
        #expect(loading.focus.map { [$0.x, $0.y] } == [6, 1])
    }
}
