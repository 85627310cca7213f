import Markdown
import Presentation
import TerminalUI
import Testing

@Suite("Markdown laid out into lines and drawn into the canvas")
struct MarkdownLayoutTests {
    @Test(
        "headings stand apart, and those below level 2 sit on what they head",
        arguments: [
            (40, ["Swift basics", "", "Text.", "", "Details", "Right below."]),
            (80, ["Swift basics", "", "Text.", "", "Details", "Right below."]),
        ])
    func headings(width: Int, expected: [String]) {
        let (canvas, _) = render("# Swift *basics*\n\nText.\n\n### Details\nRight below.", width: width)

        #expect(canvas.lines == expected)
        #expect(canvas.style(atX: 0, y: 0) == .heading)
        #expect(canvas.style(atX: 6, y: 0) == .heading)  // emphasis inside a heading stays a heading
        #expect(canvas.style(atX: 0, y: 4) == .heading)
        #expect(canvas.style(atX: 0, y: 5) == .normal)
    }

    @Test(
        "paragraphs wrap at word boundaries, wide characters counted twice",
        arguments: [
            (
                40,
                [
                    "Lessons are Markdown: the reader wraps",
                    "them to the terminal, 中文字符 and 🙂",
                    "included, at word boundaries.",
                    "",
                    "中文中文中文中文中文中文中文中文中文中文",
                    "中文中文中文",
                ]
            ),
            (
                80,
                [
                    "Lessons are Markdown: the reader wraps them to the terminal, 中文字符 and 🙂",
                    "included, at word boundaries.",
                    "",
                    "中文中文中文中文中文中文中文中文中文中文中文中文中文",
                ]
            ),
        ])
    func paragraphs(width: Int, expected: [String]) {
        let markdown = """
            Lessons are Markdown: the reader wraps
            them to the terminal, 中文字符 and 🙂 included, at word boundaries.

            \(String(repeating: "中文", count: 13))
            """

        let (canvas, _) = render(markdown, width: width)

        #expect(canvas.lines == expected)
        #expect(canvas.lines.allSatisfy { $0.displayWidth <= width })
    }

    @Test("emphasis, strong, inline code and hard breaks keep their styles across wrapped lines")
    func inlineStyles() {
        let (canvas, _) = render("plain *emphasised words* and **strong** with `code`  \nnext", width: 20)

        #expect(canvas.lines == ["plain emphasised", "words and strong", "with code", "next"])
        #expect(canvas.style(atX: 0, y: 0) == .normal)
        #expect(canvas.style(atX: 6, y: 0) == .emphasis)
        #expect(canvas.style(atX: 0, y: 1) == .emphasis)
        #expect(canvas.style(atX: 5, y: 1) == .normal)
        #expect(canvas.style(atX: 10, y: 1) == .strong)
        #expect(canvas.style(atX: 5, y: 2) == .code)
        #expect(canvas.style(atX: 0, y: 3) == .normal)
    }

    @Test(
        "quotes draw a bar before every line, one per level",
        arguments: [
            (
                40,
                [
                    "│ Quoted text that is long enough to",
                    "│ wrap around the line at forty.",
                    "│",
                    "│ │ nested",
                ]
            ),
            (
                80,
                [
                    "│ Quoted text that is long enough to wrap around the line at forty.",
                    "│",
                    "│ │ nested",
                ]
            ),
        ])
    func quotes(width: Int, expected: [String]) {
        let (canvas, _) = render("> Quoted text that is long enough to wrap around the line at forty.\n>\n> > nested", width: width)

        #expect(canvas.lines == expected)
        #expect(canvas.style(atX: 0, y: 0) == .quote)
        #expect(canvas.style(atX: 2, y: 0) == .normal)
    }

    @Test(
        "lists hang their text after the marker, nested bullets change shape, numbers line up",
        arguments: [
            (
                40,
                [
                    "• one",
                    "• two, an item long enough to wrap at",
                    "  forty columns",
                    "  ◦ inner",
                    "    • innermost",
                    "• three",
                    "",
                    " 9. nine",
                    "10. ten, with a second paragraph:",
                    "",
                    "    that follows",
                ]
            ),
            (
                80,
                [
                    "• one",
                    "• two, an item long enough to wrap at forty columns",
                    "  ◦ inner",
                    "    • innermost",
                    "• three",
                    "",
                    " 9. nine",
                    "10. ten, with a second paragraph:",
                    "",
                    "    that follows",
                ]
            ),
        ])
    func lists(width: Int, expected: [String]) {
        let markdown = """
            - one
            - two, an item long enough to wrap at forty columns
              - inner
                - innermost
            - three

            9. nine
            10. ten, with a second paragraph:

                that follows
            """

        let (canvas, _) = render(markdown, width: width)

        #expect(canvas.lines == expected)
    }

    @Test(
        "code blocks are never wrapped: shaded with a margin, a long line cut with a dim mark",
        arguments: [
            (
                40,
                [
                    " func greet() {",
                    "     print(\"a line of code far too lon…",
                    " }",
                ]
            ),
            (
                80,
                [
                    " func greet() {",
                    "     print(\"a line of code far too long to fit in forty columns\")",
                    " }",
                ]
            ),
        ])
    func codeBlocks(width: Int, expected: [String]) {
        let markdown = "```swift\nfunc greet() {\n\tprint(\"a line of code far too long to fit in forty columns\")\n}\n```"

        let (canvas, _) = render(markdown, width: width)

        #expect(canvas.lines == expected)
        #expect(canvas.style(atX: 0, y: 0) == .code)
        #expect(canvas.style(atX: width - 1, y: 2) == .code)  // shaded to the edge
        #expect(canvas.style(atX: width - 2, y: 1) == (width == 40 ? .dim : .code))
    }

    @Test("a code block inside a list item is indented with it and cut at the edge")
    func codeInList() {
        let (canvas, _) = render("- item\n\n  ```\n  0123456789abcdef\n  ```", width: 12)

        #expect(canvas.lines == ["• item", "", "   0123456…"])
        #expect(canvas.style(atX: 2, y: 2) == .code)
        #expect(canvas.style(atX: 10, y: 2) == .dim)
        #expect(canvas.style(atX: 11, y: 2) == .code)
    }

    @Test(
        "a thematic break is a dim rule across the width",
        arguments: [40, 80])
    func thematicBreak(width: Int) {
        let (canvas, _) = render("above\n\n---\n\nbelow", width: width)

        #expect(canvas.lines == ["above", "", String(repeating: "─", count: width), "", "below"])
        #expect(canvas.style(atX: width - 1, y: 2) == .dim)
    }

    @Test(
        "links are numbered after their text and listed after the body, one number per address",
        arguments: [
            (
                40,
                [
                    "Read the guide[1], then the reference[2]",
                    "and the guide[1] again; see the",
                    "diagram[3].",
                    "",
                    "Links",
                    "[1] https://edugo.example/guide",
                    "[2] https://edugo.example/reference/a-ve",
                    "    ry-long-address",
                    "[3] diagram.png",
                ]
            ),
            (
                80,
                [
                    "Read the guide[1], then the reference[2] and the guide[1] again; see the",
                    "diagram[3].",
                    "",
                    "Links",
                    "[1] https://edugo.example/guide",
                    "[2] https://edugo.example/reference/a-very-long-address",
                    "[3] diagram.png",
                ]
            ),
        ])
    func links(width: Int, expected: [String]) {
        let markdown = """
            Read [the guide](https://edugo.example/guide), then [the reference](https://edugo.example/reference/a-very-long-address)
            and [the guide](https://edugo.example/guide) again; see the ![diagram](diagram.png).
            """

        let (canvas, text) = render(markdown, width: width)

        #expect(canvas.lines == expected)
        #expect(canvas.style(atX: 5, y: 0) == .link)
        #expect(canvas.style(atX: 14, y: 0) == .dim)
        #expect(
            text.links == ["https://edugo.example/guide", "https://edugo.example/reference/a-very-long-address", "diagram.png"])
    }

    @Test("a link's text and its listed address are marked as links to it (for OSC 8), each row apart; its number is not")
    func linkMarks() {
        let markdown = "Read [the whole guide](https://edugo.example/guide) now, or ![a diagram](d.png)."

        let (canvas, _) = render(markdown, width: 16)

        #expect(
            canvas.lines == [
                "Read the whole", "guide[1] now, or", "a diagram[2].", "", "Links", "[1] https://edug",
                "    o.example/gu", "    ide", "[2] d.png",
            ])
        let guide = "https://edugo.example/guide"
        #expect(
            canvas.links == [
                LinkMark(address: guide, x: 5, y: 0, width: 9), LinkMark(address: guide, x: 0, y: 1, width: 5),
                LinkMark(address: "d.png", x: 0, y: 2, width: 9),
                LinkMark(address: guide, x: 4, y: 5, width: 12), LinkMark(address: guide, x: 4, y: 6, width: 12),
                LinkMark(address: guide, x: 4, y: 7, width: 3), LinkMark(address: "d.png", x: 4, y: 8, width: 5),
            ])
    }

    @Test("text drawn over a link ends it there: what stays to its left is still the link, what was under the text is not")
    func linkCovered() {
        var canvas = TextCanvas(size: Size(width: 20, height: 2))
        canvas.draw("0123456789", x: 0, y: 0)
        canvas.markLink("https://a.example", x: 2, y: 0, width: 6)
        canvas.markLink("https://b.example", x: 0, y: 1, width: 4)

        canvas.draw("xx", x: 5, y: 0)
        canvas.draw("yy", x: 0, y: 1)

        #expect(canvas.links == [LinkMark(address: "https://a.example", x: 2, y: 0, width: 3)])
    }

    @Test("raw HTML is shown as the text it is")
    func html() {
        let (canvas, _) = render("<div class=\"note\">\n<b>bold?</b>\n</div>\n\nafter <i>x</i>", width: 40)

        #expect(canvas.lines == ["<div class=\"note\">", "<b>bold?</b>", "</div>", "", "after <i>x</i>"])
        #expect(canvas.style(atX: 0, y: 0) == .dim)
    }

    @Test("only the lines asked for are drawn, where they are asked for")
    func drawsAWindow() {
        let document = MarkdownDocument(parsing: (1...10).map { "- item \($0)" }.joined(separator: "\n"))
        let text = MarkdownLayout.layout(document, width: 10)
        var canvas = TextCanvas(size: Size(width: 14, height: 5))

        text.draw(in: &canvas, rect: Rect(x: 2, y: 1, width: 10, height: 3), top: 4)

        #expect(canvas.lines == ["", "  • item 5", "  • item 6", "  • item 7", ""])
    }

    @Test("an empty document has no lines")
    func empty() {
        let text = MarkdownLayout.layout(MarkdownDocument(parsing: ""), width: 40)

        #expect(text.lines == [])
        #expect(text.line(forAnchor: MarkdownAnchor(block: 3, offset: 9)) == 0)
    }

    // MARK: - Helpers

    /// `markdown` laid out at `width` and drawn whole into a canvas as tall as its lines.
    private func render(_ markdown: String, width: Int) -> (TextCanvas, LaidOutText) {
        let text = MarkdownLayout.layout(MarkdownDocument(parsing: markdown), width: width)
        var canvas = TextCanvas(size: Size(width: width, height: text.lines.count))
        text.draw(in: &canvas, rect: Rect(x: 0, y: 0, width: width, height: text.lines.count), top: 0)
        return (canvas, text)
    }
}
