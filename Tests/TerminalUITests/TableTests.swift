import Presentation
import TerminalUI
import Testing

@Suite("Table")
struct TableTests {
    /// Name (primary), a droppable note that gives way first, a size with a short form that
    /// gives way second, an amount that never does.
    static let columns = [
        TableColumn("Name", width: .flexible(min: 4, max: 40), gap: 0),
        TableColumn("Note", width: .flexible(min: 6, max: 20), givesWay: 1, droppable: true),
        TableColumn("Size", compactHeading: "Sz", width: .choices([6, 2]), givesWay: 2),
        TableColumn("Amount", width: .flexible(min: 6, max: 10), alignment: .trailing),
    ]
    static let content = [30, 12, 0, 7]

    static func layout(_ width: Int, target: Int = 20) -> Table {
        Table(columns, contentWidths: content, width: width, primary: 0, primaryTarget: target)
    }

    @Test("with room, every column is as wide as its content and the rest stays at the right")
    func room() {
        let table = Self.layout(100)

        #expect(table.widths == [30, 12, 6, 7])
        #expect(table.offsets == [0, 32, 46, 54])
    }

    @Test("columns give way in their order until the primary has its target: shrink, then drop, then the next")
    func givingWay() {
        // 30+2+12+2+6+2+7 = 61: the note shrinks first...
        #expect(Self.layout(55, target: 30).widths == [30, 6, 6, 7])
        // ...then goes, before the size shortens...
        #expect(Self.layout(50, target: 30).widths == [30, nil, 6, 7])
        // ...which then shortens; the primary takes what is left, up to its content.
        #expect(Self.layout(44, target: 30).widths == [30, nil, 2, 7])
        #expect(Self.layout(44, target: 20).widths == [27, nil, 6, 7], "a lower target leaves the size whole")
    }

    @Test("a column that keeps its text whole goes rather than shrink below it")
    func keepsWhole() {
        var columns = Self.columns
        columns[1].keepsWhole = true
        let table = Table(columns, contentWidths: Self.content, width: 55, primary: 0, primaryTarget: 30)
        #expect(table.widths == [30, nil, 6, 7], "the note would have shrunk to 6 of its 12")
    }

    @Test("below its target the primary shrinks only when nothing else can give way")
    func primaryLast() {
        #expect(Self.layout(30, target: 20).widths == [17, nil, 2, 7])
        #expect(Self.layout(12, target: 20).widths == [1, nil, 2, 7], "the amount never gives way; drawing clips it")
    }

    @Test("a flexible column with no content and no minimum is not shown, and takes no gap")
    func emptyColumn() {
        let columns = [
            TableColumn("", width: .flexible(min: 0, max: 6), gap: 0),
            TableColumn("Name", width: .flexible(min: 4, max: 40)),
        ]
        let table = Table(columns, contentWidths: [0, 10], width: 40, primary: 1, primaryTarget: 20)

        #expect(table.widths == [nil, 10])
        #expect(table.offsets == [0, 0])
    }

    @Test("drawn: amounts align right, short headings where the column is narrow, nothing past the width")
    func drawn() {
        var canvas = TextCanvas(size: Size(width: 34, height: 3))
        let table = Self.layout(32, target: 20)
        table.drawHeadings(in: &canvas, x: 1, y: 0)
        table.draw(["Gyōza 餃子 and ramen for two", "ignored", "XL", "12.50"], in: &canvas, x: 1, y: 1, style: .normal)
        table.draw(["🍜 Ramen", "", "S", "1234567.00"], in: &canvas, x: 1, y: 2, style: .normal)

        #expect(
            canvas.lines == [
                " Name                 Sz   Amount",
                " Gyōza 餃子 and ram…  XL    12.50",
                " 🍜 Ramen             S   123456…",
            ])
    }
}
