import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import Catalog

/// The catalog's table drawn on its own, whole canvas, at the widths people use: wide (CJK)
/// and emoji titles, a title too long for any width, and every reason a course cannot be joined.
@Suite("Catalog table")
struct CatalogTableTests {
    static let rows: [CatalogTable.Row] = [
        .init(
            course: .fixture(
                id: "a", title: "Agile and Scrum in Real Teams, With Many Long Words Indeed", instructor: "Daniel Okafor",
                category: "Business", capacity: 30, enrolledCount: 30),
            marks: CourseMarks()
        ),
        .init(
            course: .fixture(
                id: "d", title: "Deutsch für den Beruf", instructor: "İlker Yılmaz", category: "Languages", level: .advanced,
                durationMinutes: 600, price: Price(minorUnits: 4500, currency: "EUR"), prerequisiteID: "a"),
            marks: CourseMarks(isFavourite: true, prerequisiteMet: false)
        ),
        .init(
            course: .fixture(
                id: "g", title: "🎸 Guitar: First Steps 🎶", instructor: "Tomás Ó Briain", category: "Photography & Music",
                durationMinutes: 240, price: Price(minorUnits: 0, currency: "EUR"), capacity: nil),
            marks: CourseMarks(isFavourite: true, enrollment: .fixture(courseID: "g"))
        ),
        .init(
            course: .fixture(id: "s", title: "Swift 並行処理入門 — 実践ガイド", instructor: "王芳 (Wang Fang)", level: .intermediate),
            marks: CourseMarks()
        ),
    ]

    /// The table as a list screen draws it: one column of margin each side.
    static func drawn(terminalWidth: Int) -> [String] {
        var canvas = TextCanvas(size: Size(width: terminalWidth, height: rows.count + 1))
        let table = CatalogTable(courses: rows.map(\.course), width: terminalWidth - 2)
        table.drawHeadings(in: &canvas, x: 1, y: 0)
        for (index, row) in rows.enumerated() {
            table.draw(row, in: &canvas, x: 1, y: index + 1, isSelected: false)
        }
        return canvas.lines
    }

    @Test(
        "60 columns: Seats, Category and the instructor give way, the level shortens, then the duration and the price take their short forms; the title keeps about half the row"
    )
    func sixty() {
        #expect(
            Self.drawn(terminalWidth: 60) == [
                "    Title                                Lvl   Dur.   Price",
                "    Agile and Scrum in Real Tea… full    Beg   2h30 35.99 €",
                " ★  Deutsch für den Beruf        locked  Adv    10h    45 €",
                " ★✓ 🎸 Guitar: First Steps 🎶            Beg     4h    Free",
                "    Swift 並行処理入門 — 実践ガ…         Int   2h30 35.99 €",
            ])
    }

    @Test("at every width a price column is all full forms or all short ones, never 5.00 EUR over 45 €", arguments: 40...100)
    func oneFormPerColumn(width: Int) {
        let courses: [Course] = [
            .fixture(id: "a", title: "A Rather Long Title For a Course", price: Price(minorUnits: 500, currency: "EUR")),
            .fixture(id: "b", title: "Another Long Title For a Course", price: Price(minorUnits: 4500, currency: "EUR")),
            .fixture(id: "c", title: "A Third Title", price: Price(minorUnits: 4900, currency: "USD")),
        ]
        var canvas = TextCanvas(size: Size(width: width, height: courses.count))
        let table = CatalogTable(courses: courses, width: width - 2)
        for (index, course) in courses.enumerated() {
            table.draw(CatalogTable.Row(course: course, marks: CourseMarks()), in: &canvas, x: 1, y: index, isSelected: false)
        }
        let full = canvas.lines.filter { $0.hasSuffix(" EUR") || $0.hasSuffix(" USD") }.count
        let short = canvas.lines.filter { $0.hasSuffix(" €") || $0.hasSuffix(" US$") }.count
        #expect(full == 0 || short == 0, "\(canvas.lines)")
    }

    @Test(
        "60 columns, in both languages: a three-digit price keeps its short form whole (101.99 €), the title gives up the column",
        arguments: [Language.english, .spanish])
    func threeDigitPrice(language: Language) {
        // The catalog's widest sort of window: long titles, every reason a course cannot be
        // joined, and two currencies.
        let courses =
            Self.rows.map(\.course) + [
                .fixture(id: "p", title: "Pricier Course With a Long Title Too", price: Price(minorUnits: 10199, currency: "EUR")),
                .fixture(id: "n", title: "Nine Ninety-Nine", durationMinutes: 600, price: Price(minorUnits: 999, currency: "EUR")),
            ]
        let texts = Texts(language)
        var canvas = TextCanvas(size: Size(width: 60, height: courses.count))
        let table = CatalogTable(courses: courses, width: 58, texts: texts)
        for (index, course) in courses.enumerated() {
            table.draw(CatalogTable.Row(course: course, marks: CourseMarks()), in: &canvas, x: 1, y: index, isSelected: false)
        }
        let whole = language == .english ? "101.99 €" : "101,99 €"
        #expect(canvas.lines[4].hasSuffix(" \(whole)"), "\(canvas.lines)")
        #expect(canvas.lines[5].hasSuffix(language == .english ? " 9.99 €" : " 9,99 €"), "\(canvas.lines)")
        #expect(table.table.width(of: CatalogTable.Column.title.rawValue) >= 25, "\(canvas.lines)")
    }

    @Test("accessible at 80 columns: the marks are words after the title, which keeps its room; no column of marks before it")
    func accessibleMarks() {
        var canvas = TextCanvas(size: Size(width: 80, height: Self.rows.count + 1))
        let words = Self.rows.map {
            CatalogTable.Row.markWords(favourite: $0.marks.isFavourite, enrolled: $0.marks.isEnrolled, texts: .english)
        }
        let table = CatalogTable(
            contentWidths: CatalogTable.contentWidths(of: Self.rows.map(\.course), texts: .english), width: 78, texts: .english,
            markWords: words.map(\.displayWidth).max())
        for (index, row) in Self.rows.enumerated() {
            table.draw(row, in: &canvas, x: 1, y: index + 1, isSelected: false)
        }
        #expect(canvas.lines[3].hasPrefix("   🎸 Guitar: First Steps 🎶, favourite, enrol"), "\(canvas.lines[3])")
        #expect(canvas.lines[2].hasPrefix("   Deutsch für den Beruf, favourite "), "\(canvas.lines[2])")
        #expect(canvas.lines[4].hasPrefix("   Swift 並行処理入門 — 実践ガイド "), "\(canvas.lines[4])")
    }

    @Test("80 columns: the title gets the room, cut only past 42 columns")
    func eighty() {
        #expect(
            Self.drawn(terminalWidth: 80) == [
                "    Title                                               Lvl  Duration     Price",
                "    Agile and Scrum in Real Teams, With Many L… full    Beg  2h 30min 35.99 EUR",
                " ★  Deutsch für den Beruf                       locked  Adv       10h 45.00 EUR",
                " ★✓ 🎸 Guitar: First Steps 🎶                           Beg        4h      Free",
                "    Swift 並行処理入門 — 実践ガイド                     Int  2h 30min 35.99 EUR",
            ])
    }

    @Test("120 columns: the instructor and the whole level name come back")
    func hundredTwenty() {
        #expect(
            Self.drawn(terminalWidth: 120) == [
                "    Title                                                            Instructor        Level         Duration     Price",
                "    Agile and Scrum in Real Teams, With Many Long Words Ind… full    Daniel Okafor     Beginner      2h 30min 35.99 EUR",
                " ★  Deutsch für den Beruf                                    locked  İlker Yılmaz      Advanced           10h 45.00 EUR",
                " ★✓ 🎸 Guitar: First Steps 🎶                                        Tomás Ó Briain    Beginner            4h      Free",
                "    Swift 並行処理入門 — 実践ガイド                                  王芳 (Wang Fang)  Intermediate  2h 30min 35.99 EUR",
            ])
    }

    @Test("200 columns: every column, each as wide as its widest text, nothing cut, the rest empty at the right")
    func twoHundred() {
        #expect(
            Self.drawn(terminalWidth: 200) == [
                "    Title                                                              Instructor        Category             Level            Seats  Duration     Price",
                "    Agile and Scrum in Real Teams, With Many Long Words Indeed full    Daniel Okafor     Business             Beginner        0 left  2h 30min 35.99 EUR",
                " ★  Deutsch für den Beruf                                      locked  İlker Yılmaz      Languages            Advanced       28 left       10h 45.00 EUR",
                " ★✓ 🎸 Guitar: First Steps 🎶                                          Tomás Ó Briain    Photography & Music  Beginner      no limit        4h      Free",
                "    Swift 並行処理入門 — 実践ガイド                                    王芳 (Wang Fang)  Swift                Intermediate   28 left  2h 30min 35.99 EUR",
            ])
    }

    @Test("at 80 columns the title keeps at least 36 columns whatever the other columns hold")
    func titleKeepsItsRoom() {
        let widest = CatalogTable.Row(
            course: .fixture(
                title: String(repeating: "T", count: 120), instructor: String(repeating: "I", count: 40),
                category: String(repeating: "C", count: 40), level: .intermediate, durationMinutes: 99_999,
                price: Price(minorUnits: 99_999_999, currency: "EUR"), capacity: 9_000_000, enrolledCount: 1
            ),
            marks: CourseMarks(prerequisiteMet: false)
        )
        let table = CatalogTable(courses: [widest.course], width: 78).table

        #expect(table.width(of: CatalogTable.Column.title.rawValue) >= 36)
        #expect(table.width(of: CatalogTable.Column.level.rawValue) == 3)
        #expect(!table.isShown(CatalogTable.Column.instructor.rawValue))
    }

    @Test("on a wide terminal no gap between columns is wider than 3 columns", arguments: [120, 160, 200, 300])
    func narrowGaps(terminalWidth: Int) {
        let table = CatalogTable(courses: Self.rows.map(\.course), width: terminalWidth - 2).table
        let shown = table.columns.indices.filter(table.isShown)
        for (left, right) in zip(shown, shown.dropFirst()) {
            let gap = table.offsets[right] - (table.offsets[left] + table.width(of: left))
            #expect(gap <= 3, "between \(table.columns[left].heading) and \(table.columns[right].heading)")
        }
    }
}
