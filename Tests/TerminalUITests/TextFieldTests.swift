import Presentation
import TerminalUI
import Testing

@Suite("Text field")
struct TextFieldTests {
    @Test(
        "editing keys",
        arguments: [
            ([Key.character("a"), .character("b"), .character("c")], "abc", 3),
            ([.character("a"), .character("b"), .left, .character("x")], "axb", 2),
            ([.character("a"), .character("b"), .home, .character("x")], "xab", 1),
            ([.character("a"), .character("b"), .home, .end, .character("x")], "abx", 3),
            ([.character("a"), .character("b"), .backspace], "a", 1),
            ([.character("a"), .character("b"), .left, .left, .delete], "b", 0),
            ([.character("a"), .character("b"), .control("u")], "", 0),
            ([.backspace, .delete, .left], "", 0),
            ([.character("Z"), .character("o"), .character("ë"), .character(" "), .character("山"), .character("田")], "Zoë 山田", 6),
            ([.character("🙂"), .left, .right, .right], "🙂", 1),
            // Found by the property test: a mark that joins the character before it once left
            // the cursor past the end, and the next key crashed.
            ([.character("e"), .character("\u{301}"), .character("x")], "e\u{301}x", 2),
            ([.character("🇫"), .character("🇷"), .character("x")], "🇫🇷x", 2),
            ([.character("a"), .character("\u{7}"), .character("\t"), .character("\u{1B}")], "a", 1),
        ])
    func editing(keys: [Key], text: String, cursor: Int) {
        var field = TextField()

        for key in keys { _ = field.handle(key) }

        #expect(field.text == text)
        #expect(field.cursor == cursor)
    }

    @Test("keys that are not for editing are left for the screen")
    func notEditing() {
        var field = TextField(text: "abc")

        let used = [Key.up, .enter, .escape].map { field.handle($0) }

        #expect(used == [false, false, false])
        #expect(field.text == "abc")
    }

    @Test("a long text scrolls so the cursor stays inside the field")
    func scrolls() {
        let field = TextField(text: "the quick brown fox jumps")
        var canvas = TextCanvas(size: Size(width: 12, height: 1))

        field.draw(in: &canvas, x: 0, y: 0, width: 10, focused: true)

        #expect(canvas.lines[0] == "fox jumps")
        #expect(canvas.cursor?.x == 9)
    }

    @Test("wide characters scroll by their width")
    func wideScroll() {
        var field = TextField()
        for character in "日本語入門です" { _ = field.handle(.character(character)) }
        var canvas = TextCanvas(size: Size(width: 8, height: 1))

        field.draw(in: &canvas, x: 0, y: 0, width: 6, focused: true)

        // Four columns of text and the cursor's cell; a third wide character would not fit.
        #expect(canvas.lines[0] == "です")
        #expect(canvas.cursor?.x == 4)
    }
}
