import Presentation
import TerminalUI
import Testing

@Suite("List selection and scrolling")
struct ListStateTests {
    @Test(
        "list keys move the selection within the list",
        arguments: [
            (Key.down, 5, 6), (Key.character("j"), 5, 6), (Key.up, 5, 4), (Key.character("k"), 5, 4),
            (Key.pageDown, 5, 15), (Key.pageUp, 15, 5), (Key.pageUp, 3, 0),
            (Key.home, 42, 0), (Key.character("g"), 42, 0), (Key.end, 3, 99), (Key.character("G"), 3, 99),
            (Key.up, 0, 0), (Key.down, 99, 99), (Key.pageDown, 95, 99),
        ])
    func keys(key: Key, from start: Int, expected: Int) {
        var state = ListState()
        state.select(start, itemCount: 100, pageSize: 10)

        let handled = state.handle(key, itemCount: 100, pageSize: 10)

        #expect(handled)
        #expect(state.selectedIndex == expected)
    }

    @Test("other keys are not list keys")
    func otherKeys() {
        var state = ListState()

        let enter = state.handle(.enter, itemCount: 10, pageSize: 5)
        let letter = state.handle(.character("x"), itemCount: 10, pageSize: 5)

        #expect(!enter)
        #expect(!letter)
        #expect(state.selectedIndex == 0)
    }

    @Test("the visible rows follow the selection and stay inside the list")
    func visibleRange() {
        var state = ListState()

        #expect(state.visibleRange(itemCount: 100, height: 10) == 0..<10)
        state.select(15, itemCount: 100, pageSize: 10)
        #expect(state.visibleRange(itemCount: 100, height: 10) == 6..<16)
        state.select(12, itemCount: 100, pageSize: 10)
        #expect(state.visibleRange(itemCount: 100, height: 10) == 6..<16)
        state.select(99, itemCount: 100, pageSize: 10)
        #expect(state.visibleRange(itemCount: 100, height: 10) == 90..<100)
        #expect(state.visibleRange(itemCount: 100, height: 30) == 70..<100)
        #expect(state.visibleRange(itemCount: 0, height: 10) == 0..<0)
    }

    @Test("only the visible rows are drawn, however long the list")
    func drawsOnlyVisibleRows() {
        var canvas = TextCanvas(size: Size(width: 10, height: 5))
        var state = ListState()
        state.select(500_000, itemCount: 1_000_000, pageSize: 5)
        var drawn: [Int] = []

        ListView.draw(in: &canvas, area: Rect(x: 0, y: 0, width: 10, height: 5), itemCount: 1_000_000, state: state) {
            canvas, index, row, _ in
            drawn.append(index)
            canvas.draw("\(index)", x: 0, y: row.y)
        }

        #expect(drawn == Array(499_996...500_000))
        #expect(canvas.lines.last == "500000")
        #expect(canvas.style(atX: 9, y: 4) == .selection)
    }

    @Test("the wheel moves the selection, a click selects the row under it")
    func mouse() {
        var state = ListState()
        let area = Rect(x: 0, y: 3, width: 40, height: 10)

        let wheelDown = state.handle(.wheelDown(x: 5, y: 5), area: area, itemCount: 50)
        #expect(wheelDown && state.selectedIndex == 3)
        let click = state.handle(.click(x: 5, y: 7), area: area, itemCount: 50)
        #expect(click && state.selectedIndex == 4)
        let above = state.handle(.click(x: 5, y: 1), area: area, itemCount: 50)
        #expect(!above && state.selectedIndex == 4)
        let wheelUp = state.handle(.wheelUp(x: 5, y: 5), area: area, itemCount: 50)
        #expect(wheelUp && state.selectedIndex == 1)
    }
}
