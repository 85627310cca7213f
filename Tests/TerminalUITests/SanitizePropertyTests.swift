import Presentation
import PropertyBased
import TerminalUI
import Testing

/// Whatever a title holds, what reaches the terminal has no control characters and fits.
@Suite("Sanitising, random hostile text")
struct SanitizePropertyTests {
    /// Escape introducers, terminators and parameters mixed with ordinary and wide text.
    static let alphabet: [Unicode.Scalar] = [
        "\u{1B}", "[", "]", "P", "_", "^", "X", "(", "\u{07}", "\u{9B}", "\u{90}", "\u{9C}", "\u{9D}", "\\",
        "0", "2", ";", "J", "m", "a", " ", "\u{0}", "\u{7F}", "\u{85}", "\t", "\n", "\r", "é", "\u{301}", "日", "🙂",
        "\u{202E}", "\u{200B}", "\u{200D}", "\u{FEFF}", "\u{2066}",
    ]

    @Test("the result has no control characters and, cut to any width, fits it")
    func anyText() async {
        await propertyCheck(
            count: 500,
            input: Gen.int(in: 0...(Self.alphabet.count - 1)).array(of: 0...60), Gen.int(in: 0...20)
        ) { choices, width in
            var text = String.UnicodeScalarView()
            text.append(contentsOf: choices.map { Self.alphabet[$0] })

            let clean = TerminalText.sanitize(String(text))

            #expect(!clean.unicodeScalars.contains(where: TerminalText.isRemoved), "\(clean.debugDescription)")
            #expect(TerminalText.truncate(clean, toWidth: width).displayWidth <= width)
            #expect(TerminalText.clean(String(text), width: width).displayWidth <= width)
        }
    }

    @Test("a lone combining mark then a wide character at width 1: the wide one overflows, nothing is lost")
    func combiningThenWide() {
        let lines = TextWrapper.wrap("\u{301}日a", width: 1)

        #expect(lines.joined() == "\u{301}日a")
        #expect(lines.allSatisfy { $0.displayWidth <= 1 || $0.filter { $0.displayWidth > 0 } == "日" })
    }

    @Test("wrapping any text keeps every visible character, in order, on lines that fit")
    func wrapAnyText() async {
        await propertyCheck(
            count: 500,
            input: Gen.int(in: 0...(Self.alphabet.count - 1)).array(of: 0...80), Gen.int(in: 1...12)
        ) { choices, width in
            var text = String.UnicodeScalarView()
            text.append(contentsOf: choices.map { Self.alphabet[$0] })
            let visible = TerminalText.sanitize(String(text), keepingNewlines: true).filter { $0 != " " && $0 != "\n" }

            let lines = TextWrapper.wrap(String(text), width: width)

            #expect(lines.joined().filter { $0 != " " } == visible)
            // Only a character wider than the line may overflow it, alone but for characters
            // of no width (a lone combining mark before it: `\u{301}日` at width 1).
            #expect(lines.allSatisfy { $0.displayWidth <= width || $0.filter { $0.displayWidth > 0 }.count == 1 })
        }
    }
}
