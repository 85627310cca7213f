import Presentation
import PropertyBased
import TerminalUI
import Testing

/// Any sequence of keys, including characters that combine with their neighbours, keeps the
/// field whole: no crash, the cursor inside the text, and the drawn cursor inside the field.
@Suite("Text field, random key sequences")
struct TextFieldPropertyTests {
    /// Characters chosen to be awkward: combining marks, emoji with modifiers and joiners,
    /// regional indicators that pair into flags, wide CJK, controls and escape introducers.
    static let keys: [Key] = [
        .character("a"), .character("Z"), .character(" "), .character("é"), .character("\u{301}"),
        .character("\u{308}"), .character("漢"), .character("字"), .character("👍"), .character("\u{1F3FD}"),
        .character("\u{200D}"), .character("👩"), .character("🇫"), .character("🇷"), .character("\u{FE0F}"),
        .character("\u{1B}"), .character("\u{7}"), .character("\u{9B}"), .character("\u{7F}"), .character("\t"),
        .character("\n"), .character("\r\n"), .character("\u{200B}"), .character("ﾊ"),
        .left, .right, .home, .end, .backspace, .delete, .control("u"), .control("a"), .control("e"),
        .up, .down, .enter, .escape, .tab, .pageUp,
    ]

    @Test("any key sequence keeps the cursor inside the text and inside the drawn field")
    func anySequence() async {
        await propertyCheck(
            count: 400,
            input: Gen.int(in: 0...(Self.keys.count - 1)).array(of: 0...80), Gen.int(in: 1...24)
        ) { choices, width in
            var field = TextField()

            for choice in choices {
                _ = field.handle(Self.keys[choice])
                #expect(field.cursor >= 0 && field.cursor <= field.text.count, "cursor \(field.cursor) in \(field.text.debugDescription)")
            }

            #expect(TerminalText.sanitize(field.text) == field.text, "a control character got in: \(field.text.debugDescription)")
            var canvas = TextCanvas(size: Size(width: 40, height: 1))
            field.draw(in: &canvas, x: 2, y: 0, width: width, focused: true)
            let cursor = canvas.cursor
            #expect(
                cursor.map { $0.x >= 2 && $0.x < 2 + width && $0.y == 0 } == true,
                "cursor drawn at \(String(describing: cursor)) for width \(width)")
            #expect(canvas.lines[0].displayWidth <= 2 + width)
        }
    }

    @Test("typing then deleting everything with Backspace leaves an empty field")
    func backspaceEmpties() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...23).array(of: 0...40)) { choices in
            var field = TextField()
            for choice in choices { _ = field.handle(Self.keys[choice]) }

            for _ in 0...choices.count { _ = field.handle(.backspace) }

            #expect(field.text.isEmpty)
            #expect(field.cursor == 0)
        }
    }
}
