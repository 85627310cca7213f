import Foundation
import Testing

@testable import Markdown

/// Parses on a thread of its own: these parses take seconds in a debug build, and on Swift's
/// cooperative pool (two threads on a 2-core machine) they would hold up the other tests of
/// the process meanwhile.
private func parsedOffThePool(_ markdown: String) async -> MarkdownDocument {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: MarkdownDocument(parsing: markdown)) }
    }
}

@Suite("Hostile Markdown is parsed to a shallow model, nothing lost, nothing crashed")
struct HostileMarkdownTests {
    @Test("100 000 nested quotes stop nesting at the cap and keep the innermost text")
    func deepQuotes() async {
        let markdown = String(repeating: ">", count: 100_000) + " deep"

        let document = await parsedOffThePool(markdown)

        #expect(Self.blockDepth(document.blocks) == MarkdownParser.maximumBlockDepth + 1)
        #expect(Self.text(of: document.blocks) == "deep")
    }

    @Test("100 000 nested list items stop nesting at the cap")
    func deepLists() async {
        let markdown = String(repeating: "- ", count: 100_000) + "item"

        let document = await parsedOffThePool(markdown)

        #expect(Self.blockDepth(document.blocks) == MarkdownParser.maximumBlockDepth + 1)
        #expect(Self.text(of: document.blocks) == "item")
    }

    @Test("100 000 stars are a thematic break, and before a word they are its text")
    func stars() async {
        let stars = String(repeating: "*", count: 100_000)

        #expect(await parsedOffThePool(stars).blocks == [.thematicBreak])
        #expect(await parsedOffThePool(stars + "a").blocks == [.paragraph([.text(stars + "a")])])
    }

    @Test("emphasis nested 130 000 deep stops at the cap and keeps every letter")
    func deepEmphasis() async {
        let markdown = String(repeating: "*a **a ", count: 65_000) + "b" + String(repeating: " a** a*", count: 65_000)

        let document = await parsedOffThePool(markdown)

        let inlineDepth = document.blocks.map { block in
            guard case .paragraph(let inlines) = block else { return 0 }
            return Self.inlineDepth(inlines)
        }.max()
        #expect(inlineDepth == MarkdownParser.maximumInlineDepth)
        let text = Self.text(of: document.blocks)
        #expect(text.count(where: { $0 == "a" }) == 260_000)
        #expect(text.contains("b"))
    }

    @Test("100 000 nested brackets are read as text")
    func deepBrackets() async {
        let markdown = String(repeating: "[", count: 100_000) + "a" + String(repeating: "](b)", count: 100_000)

        let document = await parsedOffThePool(markdown)

        #expect(Self.text(of: document.blocks).contains("a"))
    }

    @Test("a 10 MB line is one paragraph of all its text")
    func tenMegabyteLine() async {
        let markdown = String(repeating: "word ", count: 2_000_000)

        let document = await parsedOffThePool(markdown)

        #expect(document.blocks.count == 1)
        #expect(Self.text(of: document.blocks).utf8.count == 10_000_000 - 1)
    }

    @Test("NUL becomes U+FFFD and escapes stay in the model as text, for the drawing to remove")
    func controlCharacters() {
        let document = MarkdownDocument(parsing: "a\u{0}b \u{1B}[31mred\u{07}\u{1B}]0;title\u{07}")

        #expect(document.blocks == [.paragraph([.text("a\u{FFFD}b \u{1B}[31mred\u{07}\u{1B}]0;title\u{07}")])])
    }

    // MARK: - Helpers

    private static func blockDepth(_ blocks: [MarkdownBlock]) -> Int {
        blocks.map { block in
            switch block {
            case .quote(let children): 1 + blockDepth(children)
            case .list(_, _, let items): 1 + (items.map(blockDepth).max() ?? 0)
            default: 1
            }
        }.max() ?? 0
    }

    private static func inlineDepth(_ inlines: [MarkdownInline]) -> Int {
        inlines.map { inline in
            switch inline {
            case .emphasis(let children), .strong(let children), .link(_, let children), .image(_, let children):
                1 + inlineDepth(children)
            default: 0
            }
        }.max() ?? 0
    }

    /// Every letter of the blocks, joined with nothing between blocks.
    private static func text(of blocks: [MarkdownBlock]) -> String {
        blocks.map { block in
            switch block {
            case .heading(_, let inlines), .paragraph(let inlines): text(of: inlines)
            case .quote(let children): text(of: children)
            case .list(_, _, let items): items.map(text(of:)).joined()
            case .code(_, let text), .html(let text): text
            case .thematicBreak: ""
            }
        }.joined()
    }

    private static func text(of inlines: [MarkdownInline]) -> String {
        inlines.map { inline in
            switch inline {
            case .text(let text), .code(let text), .html(let text): text
            case .emphasis(let children), .strong(let children), .link(_, let children), .image(_, let children):
                text(of: children)
            case .softBreak, .lineBreak: " "
            }
        }.joined()
    }
}
