import Presentation
import Terminal
import TerminalUI
import Testing

@Suite("Input decoding")
struct InputDecoderTests {
    static let singleBytes: [(UInt8, InputEvent?)] = [
        (0x0D, .key(.enter)), (0x0A, .key(.enter)), (0x09, .key(.tab)), (0x7F, .key(.backspace)),
        (0x08, .key(.backspace)), (0x03, .key(.control("c"))), (0x0E, .key(.control("n"))),
        (0x15, .key(.control("u"))), (0x61, .char("a")), (0x51, .char("Q")), (0x2F, .char("/")), (0x20, .char(" ")),
        (0x00, nil), (0x1C, nil), (0x1F, nil),
    ]

    @Test("ASCII characters and control keys", arguments: singleBytes)
    func singleByte(byte: UInt8, expected: InputEvent?) {
        var sut = InputDecoder()

        #expect(sut.feed([byte]) == (expected.map { [$0] } ?? []))
        #expect(!sut.hasPending)
    }

    @Test("UTF-8 text of any script decodes to its characters", arguments: ["é", "山", "🙂", "Ñandú", "日本語"])
    func utf8(text: String) {
        var sut = InputDecoder()

        #expect(sut.feed(Array(text.utf8)) == text.unicodeScalars.map { .key(.character(Character($0))) })
    }

    @Test("a UTF-8 character split across reads waits for its last byte")
    func splitCharacter() {
        var sut = InputDecoder()
        let bytes = Array("山".utf8)

        #expect(sut.feed(bytes.prefix(2)) == [])
        #expect(sut.hasPending)
        #expect(sut.feed(bytes.suffix(1)) == [.char("山")])
    }

    static let sequences: [(String, [InputEvent])] = [
        ("\u{1B}[A", [.key(.up)]), ("\u{1B}[B", [.key(.down)]), ("\u{1B}[C", [.key(.right)]), ("\u{1B}[D", [.key(.left)]),
        ("\u{1B}OA", [.key(.up)]), ("\u{1B}OB", [.key(.down)]), ("\u{1B}OH", [.key(.home)]), ("\u{1B}OF", [.key(.end)]),
        ("\u{1B}[H", [.key(.home)]), ("\u{1B}[F", [.key(.end)]), ("\u{1B}[Z", [.key(.backTab)]),
        ("\u{1B}[1~", [.key(.home)]), ("\u{1B}[7~", [.key(.home)]), ("\u{1B}[4~", [.key(.end)]), ("\u{1B}[8~", [.key(.end)]),
        ("\u{1B}[3~", [.key(.delete)]), ("\u{1B}[5~", [.key(.pageUp)]), ("\u{1B}[6~", [.key(.pageDown)]),
        ("\u{1B}[1;5A", [.key(.up)]), ("\u{1B}[15~", [.key(.function(5))]), ("\u{1B}OP", [.key(.function(1))]),
        ("\u{1B}[[A", [.key(.function(1))]), ("\u{1B}[2~", []), ("\u{1B}[200~", []),
        ("\u{1B}q", [.key(.escape), .char("q")]), ("\u{1B}\u{1B}[A", [.key(.escape), .key(.up)]),
        // Alt and a digit: the tabs where the digits pick answers.
        ("\u{1B}2", [.key(.alt("2"))]), ("\u{1B}5x", [.key(.alt("5")), .char("x")]), ("\u{1B}\u{1B}1", [.key(.escape), .key(.alt("1"))]),
        ("jj\r", [.char("j"), .char("j"), .key(.enter)]),
        ("\u{1B}[A\u{1B}[B/x", [.key(.up), .key(.down), .char("/"), .char("x")]),
        // X10 mouse: button + 32, column + 33, row + 33.
        ("\u{1B}[M\u{20}\u{24}\u{25}", [.mouse(.click(x: 3, y: 4))]),
        ("\u{1B}[M\u{23}\u{24}\u{25}", []),  // release
        ("\u{1B}[M\u{60}\u{24}\u{25}", [.mouse(.wheelUp(x: 3, y: 4))]),
        ("\u{1B}[M\u{61}\u{24}\u{25}", [.mouse(.wheelDown(x: 3, y: 4))]),
        // SGR mouse: 1-based cells, M press, m release.
        ("\u{1B}[<0;8;10M", [.mouse(.click(x: 7, y: 9))]), ("\u{1B}[<0;8;10m", []),
        ("\u{1B}[<64;1;1M", [.mouse(.wheelUp(x: 0, y: 0))]), ("\u{1B}[<65;2;3M", [.mouse(.wheelDown(x: 1, y: 2))]),
        ("\u{1B}[<32;5;5M", []),  // motion
        ("\u{1B}[<0;99999999999999999999;5M", []),  // a number too large for a cell
    ]

    @Test("key and mouse sequences", arguments: sequences)
    func sequence(text: String, expected: [InputEvent]) {
        var sut = InputDecoder()

        #expect(sut.feed(Array(text.utf8)) == expected)
        #expect(!sut.hasPending)
    }

    @Test("a lone Esc waits for what may follow, and is the Escape key when nothing does")
    func loneEscape() {
        var sut = InputDecoder()

        #expect(sut.feed([0x1B]) == [])
        #expect(sut.hasPending)
        #expect(sut.flush() == [.key(.escape)])
        #expect(!sut.hasPending)
    }

    @Test("a sequence split across reads is decoded whole")
    func splitSequence() {
        var sut = InputDecoder()

        #expect(sut.feed(Array("\u{1B}[".utf8)) == [])
        #expect(sut.feed(Array("<0;8;1".utf8)) == [])
        #expect(sut.feed(Array("0M".utf8)) == [.mouse(.click(x: 7, y: 9))])
    }

    static let unfinished = ["\u{1B}[<", "\u{1B}[<0;12", "\u{1B}[M", "\u{1B}[M\u{20}", "\u{1B}[5", "\u{1B}O", "\u{1B}[["]

    @Test("an unfinished sequence is dropped when nothing follows, and the next key is read normally", arguments: unfinished)
    func unfinishedSequence(text: String) {
        var sut = InputDecoder()

        #expect(sut.feed(Array(text.utf8)) == [])
        #expect(sut.flush() == [])
        #expect(sut.feed(Array("q".utf8)) == [.char("q")])
    }

    @Test("a sequence that never ends is cut at its length limit and the keys after it are kept")
    func endlessSequence() {
        var sut = InputDecoder()
        let garbage = "\u{1B}[" + String(repeating: "1;", count: 100)

        let events = sut.feed(Array((garbage + "\u{07}q").utf8))

        #expect(events.contains(.char("q")))
    }

    @Test("invalid UTF-8 and C1 controls are not text")
    func invalidBytes() {
        var sut = InputDecoder()

        #expect(sut.feed([0xFF, 0xC0, 0xAF, 0x80, 0xC2, 0x85, 0xED, 0xA0, 0x80, 0x61]) == [.char("a")])
    }
}
