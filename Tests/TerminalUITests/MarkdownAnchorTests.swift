import Markdown
import Presentation
import TerminalUI
import Testing

@Suite("The reading position kept across widths")
struct MarkdownAnchorTests {
    static let lesson = MarkdownDocument(
        parsing: """
            # Variables and constants

            Swift keeps values in variables, declared with `var`, and constants, declared with `let`. \
            A constant cannot change once set, which lets the compiler check more of your program \
            and lets readers trust a value they have seen once.

            ## Types

            Every value has a type. Swift infers it from the first value, so `let count = 3` is an \
            integer and `let name = "Ada"` is a string, without a word about types.

            > Prefer constants: make a value variable only when the program needs to change it, \
            and the compiler will tell you when a variable is never changed.

            - Integers count things: lessons, attempts, seconds left before a review is due again.
            - Strings hold text: names, titles, the prompt of a question and each of its choices.
              - Characters are what a string is made of, one grapheme at a time, emoji included.

            ```swift
            var attempts = 0
            let limit = 3
            ```

            Read [the language guide](https://docs.swift.org/swift-book) for the whole story, \
            then come back for the questions at the end of this lesson about what you have read.
            """)

    @Test("every line is found again from its own anchor", arguments: [20, 40, 80, 120])
    func ownAnchor(width: Int) {
        let text = MarkdownLayout.layout(Self.lesson, width: width)

        let found = text.lines.indices.map { text.line(forAnchor: text.anchor(ofLine: $0)) }

        #expect(found == Array(text.lines.indices))
    }

    @Test(
        "the word at the start of a line at one width is on the line its anchor finds at another",
        arguments: [(80, 120), (120, 80), (40, 80), (80, 40), (120, 20)])
    func acrossWidths(from: Int, to: Int) {
        let before = MarkdownLayout.layout(Self.lesson, width: from)
        let after = MarkdownLayout.layout(Self.lesson, width: to)

        for line in before.lines.indices {
            guard let word = Self.firstWord(of: before.lines[line].text) else { continue }

            let found = after.line(forAnchor: before.anchor(ofLine: line))

            #expect(
                Self.words(of: after.lines[found].text).contains(word),
                "line \(line) at \(from) starts with \(word); line \(found) at \(to) is \(after.lines[found].text)")
        }
    }

    @Test("a blank line between blocks finds the blank line before the same block")
    func blankLines() throws {
        let narrow = MarkdownLayout.layout(Self.lesson, width: 40)
        let wide = MarkdownLayout.layout(Self.lesson, width: 120)
        let blank = try #require(narrow.lines.indices.first { $0 > 2 && narrow.lines[$0].text.isEmpty })

        let found = wide.line(forAnchor: narrow.anchor(ofLine: blank))

        #expect(wide.lines[found].text.isEmpty)
        #expect(wide.lines[found + 1].text == narrow.lines[blank + 1].text)
    }

    @Test("an anchor past the end finds the last line, and lines out of range clamp")
    func outOfRange() {
        let text = MarkdownLayout.layout(Self.lesson, width: 80)

        #expect(text.line(forAnchor: MarkdownAnchor(block: 1_000, offset: 0)) == text.lines.count - 1)
        #expect(text.anchor(ofLine: -5) == MarkdownAnchor(block: 0, offset: 0))
        #expect(text.anchor(ofLine: 1_000_000) == text.anchor(ofLine: text.lines.count - 1))
    }

    // MARK: - Helpers

    /// The first word of a line's content: list markers, numbers and quote bars left out.
    private static func firstWord(of line: String) -> String? {
        words(of: line).first
    }

    private static func words(of line: String) -> [String] {
        line.split(separator: " ").map(String.init).filter { word in
            !["•", "◦", "│"].contains(word) && !(word.hasSuffix(".") && word.dropLast().allSatisfy(\.isNumber))
        }
    }
}
