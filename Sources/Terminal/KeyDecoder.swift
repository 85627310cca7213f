import CNcurses
import TerminalUI

/// Turns raw ncurses input into `InputEvent`s. Pure, so the whole key map is tested as a table.
///
/// With `keypad` on, ncurses already decodes function keys; the decoder also understands the
/// common escape sequences in case one arrives as separate characters (`ESC [ A`).
public struct KeyDecoder: Sendable {
    public init() {}

    /// Decodes one batch of input read without waiting. An `ESC` that is the last item of a
    /// batch is a bare Escape key (ncurses waited `ESCDELAY` for more).
    public func decode(_ batch: [RawInput]) -> [InputEvent] {
        var events: [InputEvent] = []
        var index = 0
        while index < batch.count {
            let item = batch[index]
            index += 1
            switch item {
            case .character(0x1B):
                if let (event, used) = escapeSequence(in: batch[index...]) {
                    events.append(event)
                    index += used
                } else {
                    events.append(.key(.escape))
                }
            case .character(let value):
                if let event = character(value) { events.append(event) }
            case .keyCode(let code):
                if let event = keyCode(code) { events.append(event) }
            case .mouse(let x, let y, let buttons):
                if let event = mouse(x: x, y: y, buttons: buttons) { events.append(event) }
            }
        }
        return events
    }

    func character(_ value: UInt32) -> InputEvent? {
        switch value {
        case 0x0A, 0x0D: return .key(.enter)
        case 0x09: return .key(.tab)
        case 0x08, 0x7F: return .key(.backspace)
        case 0x1B: return .key(.escape)
        case 0x01...0x1A:
            return .key(.control(Character(Unicode.Scalar(value + 0x60)!)))
        case 0x00...0x1F, 0x80...0x9F:
            return nil
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .key(.character(Character(scalar)))
        }
    }

    func keyCode(_ code: Int32) -> InputEvent? {
        switch code {
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_HOME, KEY_FIND, KEY_A1: return .key(.home)
        case KEY_END, KEY_SELECT, KEY_C1, KEY_LL: return .key(.end)
        case KEY_ENTER: return .key(.enter)
        case KEY_BACKSPACE: return .key(.backspace)
        case KEY_DC: return .key(.delete)
        case KEY_BTAB: return .key(.backTab)
        case KEY_RESIZE: return .resize
        case KEY_F0 + 1...KEY_F0 + 24: return .key(.function(Int(code - KEY_F0)))
        default: return nil
        }
    }

    func mouse(x: Int, y: Int, buttons: UInt) -> InputEvent? {
        if buttons & UInt(edugo_button4_pressed()) != 0 { return .mouse(.wheelUp(x: x, y: y)) }
        if buttons & UInt(edugo_button5_pressed()) != 0 { return .mouse(.wheelDown(x: x, y: y)) }
        if buttons & UInt(edugo_button1_pressed() | edugo_button1_clicked()) != 0 {
            return .mouse(.click(x: x, y: y))
        }
        return nil
    }

    /// `ESC [ …` (CSI) and `ESC O …` (SS3) sequences for the keys the app uses.
    private func escapeSequence(in rest: ArraySlice<RawInput>) -> (InputEvent, Int)? {
        var scalars: [Unicode.Scalar] = []
        for item in rest.prefix(4) {
            guard case .character(let value) = item, let scalar = Unicode.Scalar(value) else { break }
            scalars.append(scalar)
        }
        guard let introducer = scalars.first, introducer == "[" || introducer == "O" else { return nil }
        let finals: [Unicode.Scalar: Key] = [
            "A": .up, "B": .down, "C": .right, "D": .left, "H": .home, "F": .end, "Z": .backTab,
        ]
        if scalars.count >= 2, let key = finals[scalars[1]] { return (.key(key), 2) }
        guard introducer == "[", scalars.count >= 3, scalars[2] == "~" else { return nil }
        let tilde: [Unicode.Scalar: Key] = [
            "1": .home, "7": .home, "4": .end, "8": .end, "3": .delete, "5": .pageUp, "6": .pageDown,
        ]
        guard let key = tilde[scalars[1]] else { return nil }
        return (.key(key), 3)
    }
}
