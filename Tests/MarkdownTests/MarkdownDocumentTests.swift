import Markdown
import Testing

@Suite("CommonMark read into the document model")
struct MarkdownDocumentTests {
    @Test(
        "each block construct becomes its block",
        arguments: [
            ("# Title", [MarkdownBlock.heading(level: 1, [.text("Title")])]),
            ("### Third", [.heading(level: 3, [.text("Third")])]),
            ("Setext\n---", [.heading(level: 2, [.text("Setext")])]),
            ("One\ntwo", [.paragraph([.text("One"), .softBreak, .text("two")])]),
            ("> quoted", [.quote([.paragraph([.text("quoted")])])]),
            ("- a\n- b", [.list(ordered: false, start: 1, items: [[.paragraph([.text("a")])], [.paragraph([.text("b")])]])]),
            ("3. c\n4. d", [.list(ordered: true, start: 3, items: [[.paragraph([.text("c")])], [.paragraph([.text("d")])]])]),
            ("```swift\nlet x = 1\n```", [.code(info: "swift", text: "let x = 1")]),
            ("```\nplain\n```", [.code(info: nil, text: "plain")]),
            ("    indented\n    code", [.code(info: nil, text: "indented\ncode")]),
            ("***", [.thematicBreak]),
            ("<div>\n<b>hi</b>\n</div>", [.html("<div>\n<b>hi</b>\n</div>")]),
        ])
    func blocks(markdown: String, expected: [MarkdownBlock]) {
        #expect(MarkdownDocument(parsing: markdown).blocks == expected)
    }

    @Test(
        "each inline construct becomes its inline",
        arguments: [
            ("*em* and _em_", [MarkdownInline.emphasis([.text("em")]), .text(" and "), .emphasis([.text("em")])]),
            ("**strong**", [.strong([.text("strong")])]),
            ("`a *b*`", [.code("a *b*")]),
            ("[EduGo](https://edugo.example/a \"title\")", [.link(destination: "https://edugo.example/a", [.text("EduGo")])]),
            ("![a cat](cat.png)", [.image(source: "cat.png", [.text("a cat")])]),
            ("line  \nbreak", [.text("line"), .lineBreak, .text("break")]),
            ("a\\\nb", [.text("a"), .lineBreak, .text("b")]),
            ("x <span>y</span>", [.text("x "), .html("<span>"), .text("y"), .html("</span>")]),
            ("**a *b* c**", [.strong([.text("a "), .emphasis([.text("b")]), .text(" c")])]),
            ("2 * 3 * 4 [not a link]", [.text("2 * 3 * 4 [not a link]")]),
        ])
    func inlines(markdown: String, expected: [MarkdownInline]) {
        #expect(MarkdownDocument(parsing: markdown).blocks == [.paragraph(expected)])
    }

    @Test("lists nest inside items, and a loose item keeps each of its blocks")
    func nestedLists() {
        let markdown = """
            1. first

               more
            2. second
               - inner
            """

        let blocks = MarkdownDocument(parsing: markdown).blocks

        #expect(
            blocks == [
                .list(
                    ordered: true, start: 1,
                    items: [
                        [.paragraph([.text("first")]), .paragraph([.text("more")])],
                        [.paragraph([.text("second")]), .list(ordered: false, start: 1, items: [[.paragraph([.text("inner")])]])],
                    ])
            ])
    }

    @Test("an empty text is an empty document")
    func empty() {
        #expect(MarkdownDocument(parsing: "").blocks == [])
        #expect(MarkdownDocument(parsing: "\n\n  \n").blocks == [])
    }

    @Test("HTML is kept as the text it is, never interpreted")
    func htmlIsLiteral() {
        let blocks = MarkdownDocument(parsing: "<script>alert(1)</script>\n\nok &amp; <b>x</b>").blocks

        #expect(
            blocks == [
                .html("<script>alert(1)</script>"),
                .paragraph([.text("ok & "), .html("<b>"), .text("x"), .html("</b>")]),
            ])
    }
}
