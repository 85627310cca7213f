import Presentation
import TerminalUI
import Testing

@Suite("Text measured, sanitised and cut for the terminal")
struct TerminalTextTests {
    @Test(
        "display width counts wide characters twice and marks zero",
        arguments: [
            ("Swift", 5), ("中文", 4), ("🙂", 2), ("é", 1), ("e\u{301}", 1), ("中文🙂é", 7), ("★✓", 2), ("", 0),
        ])
    func displayWidth(text: String, width: Int) {
        #expect(text.displayWidth == width)
    }

    @Test(
        "hostile text loses its control characters and escape sequences",
        arguments: [
            ("plain", "plain"),
            ("\u{1B}[2JCleared", "Cleared"),
            ("\u{1B}]0;pwned\u{07}Title", "Title"),
            ("\u{1B}]0;pwned\u{1B}\\Title", "Title"),
            ("Bell\u{07}", "Bell"),
            ("Red \u{1B}[31mtext\u{1B}[0m", "Red text"),
            ("\u{9B}31mC1 CSI", "C1 CSI"),
            ("tab\tand\nnewline", "tab and newline"),
            ("\u{1B}(Bcharset", "charset"),
            ("\u{1B}Pdcs payload\u{1B}\\after", "after"),
            ("back\u{08}space", "backspace"),
            ("Ünïcödé 日本語", "Ünïcödé 日本語"),
            ("evil\u{202E}txt.exe", "eviltxt.exe"),  // right-to-left override
            ("\u{2067}isolate\u{2069} \u{200F}mark", "isolate mark"),
            ("zero\u{200B}width\u{FEFF} joiner\u{200C}\u{2060}", "zerowidth joiner"),
            ("👨\u{200D}👩\u{200D}👧", "👨👩👧"),
            ("soft\u{00AD}hyphen", "softhyphen"),
        ])
    func sanitize(hostile: String, expected: String) {
        #expect(TerminalText.sanitize(hostile) == expected)
    }

    @Test(
        "long text is cut with an ellipsis to the width",
        arguments: [
            ("Swift Concurrency", 10, "Swift Con…"),
            ("Short", 10, "Short"),
            ("中文中文中文", 5, "中文…"),
            ("中文abc中文", 6, "中文a…"),
            ("abc", 1, "…"),
            ("abc", 0, ""),
        ])
    func truncate(text: String, width: Int, expected: String) {
        let cut = TerminalText.truncate(text, toWidth: width)
        #expect(cut == expected)
        #expect(cut.displayWidth <= width)
    }

    @Test("text already cut by the caller ends with an ellipsis even when the rest fits")
    func truncateWithEllipsis() {
        #expect(TerminalText.truncate("abc", toWidth: 5, ellipsis: true) == "abc…")
        #expect(TerminalText.truncate("abcde", toWidth: 5, ellipsis: true) == "abcd…")
    }

    @Test("cleaning a megabyte of text for a row reads only what fits, and ends with an ellipsis")
    func cleanLongText() {
        let huge = String(repeating: "\u{1B}[2Jx", count: 200_000)

        let clean = TerminalText.clean(huge, width: 12)

        #expect(clean == "xxxxxxxxxxx…")
        #expect(TerminalText.boundedPrefix(huge, width: 12).text.unicodeScalars.count <= 64)
    }

    @Test("wrapping breaks at spaces and never exceeds the width")
    func wrap() {
        let lines = TextWrapper.wrap("Structured concurrency, actors and Sendable, from first task to production.", width: 20)
        #expect(lines == ["Structured", "concurrency, actors", "and Sendable, from", "first task to", "production."])
        #expect(lines.allSatisfy { $0.displayWidth <= 20 })
    }

    @Test("a word longer than the line is split, wide characters included")
    func wrapLongWord() {
        #expect(TextWrapper.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(TextWrapper.wrap("日本語入門です", width: 5) == ["日本", "語入", "門で", "す"])
    }

    @Test("newlines start paragraphs, runs of spaces collapse, and a character wider than the line gets its own")
    func wrapParagraphs() {
        #expect(TextWrapper.wrap("one\n\ntwo  three", width: 20) == ["one", "", "two three"])
        #expect(TextWrapper.wrap("a 日 b", width: 1) == ["a", "日", "b"])
        #expect(TextWrapper.wrap("", width: 5) == [""])
    }

    @Test("a 200 KB word without spaces wraps in one pass")
    func wrapHugeWord() {
        let word = String(repeating: "abcdefghij", count: 20_000)

        let lines = TextWrapper.wrap(word, width: 80)

        #expect(lines.count == 2_500)
        #expect(lines.allSatisfy { $0.count == 80 })
    }

    @Test("wrapped text is computed only as far as asked")
    func wrappedTextIsLazy() {
        var text = WrappedText(String(repeating: "word ", count: 10_000), width: 10)

        text.wrap(upTo: 3)

        #expect(text.lines == ["word word", "word word", "word word"])
        #expect(!text.isComplete)
        text.wrapAll()
        #expect(text.lines.count == 5_000)
        #expect(text.isComplete)
    }
}
