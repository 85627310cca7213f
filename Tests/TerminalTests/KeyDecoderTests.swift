import CNcurses
import Terminal
import Testing
import TerminalUI

@Suite("Key decoding")
struct KeyDecoderTests {
    static let keyCodes: [(Int32, InputEvent)] = [
        (KEY_UP, .key(.up)), (KEY_DOWN, .key(.down)), (KEY_LEFT, .key(.left)), (KEY_RIGHT, .key(.right)),
        (KEY_PPAGE, .key(.pageUp)), (KEY_NPAGE, .key(.pageDown)),
        (KEY_HOME, .key(.home)), (KEY_END, .key(.end)), (KEY_FIND, .key(.home)), (KEY_SELECT, .key(.end)),
        (KEY_ENTER, .key(.enter)), (KEY_BACKSPACE, .key(.backspace)), (KEY_DC, .key(.delete)),
        (KEY_BTAB, .key(.backTab)), (KEY_RESIZE, .resize), (KEY_F0 + 1, .key(.function(1))),
    ]

    @Test("ncurses key codes", arguments: keyCodes)
    func keyCode(code: Int32, expected: InputEvent) {
        #expect(KeyDecoder().decode([.keyCode(code)]) == [expected])
    }

    static let characters: [(UInt32, InputEvent)] = [
        (0x0D, .key(.enter)), (0x0A, .key(.enter)), (0x09, .key(.tab)), (0x7F, .key(.backspace)),
        (0x08, .key(.backspace)), (0x1B, .key(.escape)), (0x03, .key(.control("c"))),
        (0x0E, .key(.control("n"))), (0x15, .key(.control("u"))), (0x61, .char("a")), (0x51, .char("Q")),
        (0x2F, .char("/")), (0xE9, .char("é")), (0x5C71, .char("山")), (0x1F642, .char("🙂")),
    ]

    @Test("characters, control keys and any Unicode", arguments: characters)
    func character(value: UInt32, expected: InputEvent) {
        #expect(KeyDecoder().decode([.character(value)]) == [expected])
    }

    static let sequences: [([UInt32], [InputEvent])] = [
        ([0x1B, 0x5B, 0x41], [.key(.up)]),  // ESC [ A
        ([0x1B, 0x5B, 0x42], [.key(.down)]),
        ([0x1B, 0x4F, 0x43], [.key(.right)]),  // ESC O C
        ([0x1B, 0x5B, 0x5A], [.key(.backTab)]),
        ([0x1B, 0x5B, 0x35, 0x7E], [.key(.pageUp)]),  // ESC [ 5 ~
        ([0x1B, 0x5B, 0x36, 0x7E], [.key(.pageDown)]),
        ([0x1B, 0x5B, 0x33, 0x7E], [.key(.delete)]),
        ([0x1B, 0x5B, 0x31, 0x7E], [.key(.home)]),
        ([0x1B, 0x5B, 0x34, 0x7E], [.key(.end)]),
        ([0x1B], [.key(.escape)]),
        ([0x1B, 0x1B], [.key(.escape), .key(.escape)]),
        ([0x1B, 0x71], [.key(.escape), .char("q")]),
        ([0x6A, 0x6A, 0x0D], [.char("j"), .char("j"), .key(.enter)]),
        ([0x00, 0x1C, 0x85], []),  // NUL, FS and C1 controls are dropped
    ]

    @Test("escape sequences that arrive as separate characters", arguments: sequences)
    func escapeSequences(values: [UInt32], expected: [InputEvent]) {
        #expect(KeyDecoder().decode(values.map { .character($0) }) == expected)
    }

    @Test("mouse wheel and clicks")
    func mouse() {
        let decoder = KeyDecoder()

        #expect(decoder.decode([.mouse(x: 3, y: 4, buttons: UInt(edugo_button4_pressed()))]) == [.mouse(.wheelUp(x: 3, y: 4))])
        #expect(decoder.decode([.mouse(x: 3, y: 4, buttons: UInt(edugo_button5_pressed()))]) == [.mouse(.wheelDown(x: 3, y: 4))])
        #expect(decoder.decode([.mouse(x: 7, y: 9, buttons: UInt(edugo_button1_pressed()))]) == [.mouse(.click(x: 7, y: 9))])
        #expect(decoder.decode([.mouse(x: 7, y: 9, buttons: 0)]) == [])
    }
}
