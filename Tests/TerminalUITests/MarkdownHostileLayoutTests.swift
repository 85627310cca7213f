import Markdown
import Presentation
import TerminalUI
import TestSupport
import Testing

/// The 10 MB and deeply nested texts take seconds each in a debug build: they are laid out on
/// threads of their own, since a test holding one of the few threads every test's tasks share
/// made the remote tests' requests wait past their time limit (CI, 2026-11-27).
@Suite("Hostile Markdown laid out and drawn safely")
struct MarkdownHostileLayoutTests {
    static let escapes = """
        # Title\u{1B}]0;pwned\u{07}
        Text \u{1B}[2J\u{1B}[31mred\u{07}\u{0}\u{9B}31m and `code\u{1B}[H` [link\u{1B}[5m](https://x.example/\u{1B}[31m\u{07}) \u{202E}reversed

        ```sh\u{1B}[1m
        \u{1B}]8;;http://evil\u{1B}\\click\u{1B}]8;;\u{1B}\\\t\u{08}\u{7F}end\r
        ```

        > - \u{1B}P payload \u{1B}\\ \u{200B}zero\u{FEFF}

        <div>\u{1B}[?1049h</div>

        Bell\u{07} and \u{1B}c reset \u{90}dcs\u{9C} after
        """

    @Test(
        "no control character, escape or invisible format character reaches any cell or span",
        arguments: [40, 80])
    func escapesNeverReachTheCanvas(width: Int) {
        let text = MarkdownLayout.layout(MarkdownDocument(parsing: Self.escapes), width: width)

        let canvas = Self.drawWhole(text)

        #expect(!canvas.cells.contains { $0.text.unicodeScalars.contains(where: TerminalText.isRemoved) })
        #expect(!text.lines.contains { $0.text.unicodeScalars.contains(where: TerminalText.isRemoved) })
        #expect(text.links.allSatisfy { !$0.unicodeScalars.contains(where: TerminalText.isRemoved) })
        // NUL is U+FFFD (cmark's doing); the link's text is `5m`, cut from an escape by the link syntax.
        #expect(
            canvas.lines == [
                "Title", "", "Text red\u{FFFD} and code [link5m[1] reversed", "", " click   end", "", "│ • zero", "",
                "<div></div>", "", "Bell and reset after", "", "Links", "[1] https://x.example/",
            ])
    }

    @Test("100 000 nested quotes are drawn within the width, the innermost text included")
    func deepQuotes() async throws {
        let lines = try await onOwnThread {
            Self.drawWhole(MarkdownLayout.layout(MarkdownDocument(parsing: String(repeating: ">", count: 100_000) + " deep"), width: 40))
                .lines
        }

        #expect(lines.count == 1)
        #expect(lines[0].hasSuffix("│ deep"))
        #expect(lines[0].displayWidth <= 40)
    }

    @Test("emphasis 130 000 deep is drawn as its text")
    func deepEmphasis() async throws {
        let markdown = String(repeating: "*a **a ", count: 65_000) + "b" + String(repeating: " a** a*", count: 65_000)

        let (widths, letters) = try await onOwnThread {
            let text = MarkdownLayout.layout(MarkdownDocument(parsing: markdown), width: 80)
            return (text.lines.map(\.text.displayWidth), text.lines.reduce(0) { $0 + $1.text.count(where: { $0 == "a" }) })
        }

        #expect(widths.allSatisfy { $0 <= 80 })
        #expect(letters == 260_000)
    }

    @Test("a 10 MB line is wrapped whole, and a screenful of it costs a screenful of writes")
    func tenMegabyteLine() async throws {
        let (count, line, canvas) = try await onOwnThread {
            let text = MarkdownLayout.layout(MarkdownDocument(parsing: String(repeating: "word ", count: 2_000_000)), width: 80)
            var canvas = CountingCanvas(size: Size(width: 80, height: 24))
            text.draw(in: &canvas, rect: Rect(x: 0, y: 0, width: 80, height: 24), top: 60_000)
            return (text.lines.count, text.lines[60_000].text, canvas)
        }

        #expect(count == 125_000)  // 16 words of 5 columns a line
        #expect(line == String(repeating: "word ", count: 16).dropLast())
        #expect(canvas.writes == 24)
        #expect(canvas.rows == Set(0..<24))
    }

    @Test("a 10 MB line of code is one line, cut at the edge")
    func tenMegabyteCode() async throws {
        let markdown = "```\n" + String(repeating: "x", count: 10_000_000) + "\n```"

        let lines = try await onOwnThread { Self.drawWhole(MarkdownLayout.layout(MarkdownDocument(parsing: markdown), width: 40)).lines }

        #expect(lines == [" " + String(repeating: "x", count: 37) + "…"])
    }

    // MARK: - Helpers

    private static func drawWhole(_ text: LaidOutText) -> TextCanvas {
        var canvas = TextCanvas(size: Size(width: text.width, height: text.lines.count))
        text.draw(in: &canvas, rect: Rect(x: 0, y: 0, width: text.width, height: text.lines.count), top: 0)
        return canvas
    }
}

/// Counts what is written, and where.
private struct CountingCanvas: Canvas {
    let size: Size
    private(set) var writes = 0
    private(set) var rows: Set<Int> = []

    mutating func write(_ text: String, x: Int, y: Int, style: Style) {
        writes += 1
        rows.insert(y)
    }

    mutating func setCursor(_ position: (x: Int, y: Int)?) {}
}
