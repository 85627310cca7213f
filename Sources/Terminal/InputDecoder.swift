import Presentation
import TerminalUI

/// Turns the bytes a terminal sends into `InputEvent`s: UTF-8 text, control keys, CSI and SS3
/// key sequences, and X10 or SGR mouse reports. The app reads stdin itself instead of asking
/// ncurses, whose mouse parser blocks on an unfinished report.
///
/// Stateful only across reads: bytes that may start a sequence are kept until the next
/// `feed`, or until `flush()` decides they were not one (after `ESCDELAY`). A lone `ESC` is the
/// Escape key; an unfinished sequence is dropped, so nothing half-read ever blocks input.
public struct InputDecoder: Sendable {
    /// Bytes waiting for the rest of a sequence or of a UTF-8 character.
    public private(set) var pending: [UInt8] = []

    /// Sequences longer than this are not keys or mouse reports: dropped as garbage.
    static let maximumSequenceLength = 32

    public init() {}

    /// True when bytes are held back; the caller calls `flush()` if nothing follows soon.
    public var hasPending: Bool { !pending.isEmpty }

    /// Decodes `bytes` after whatever was pending.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        return decode(final: false)
    }

    /// Nothing more arrived: a lone `ESC` is the Escape key, and an unfinished sequence or
    /// character is discarded.
    public mutating func flush() -> [InputEvent] {
        decode(final: true)
    }

    private mutating func decode(final: Bool) -> [InputEvent] {
        var events: [InputEvent] = []
        var index = 0
        let bytes = pending
        while index < bytes.count {
            switch step(bytes, at: index, final: final) {
            case .event(let event, let used):
                if let event { events.append(event) }
                index += used
            case .needMore:
                pending = Array(bytes[index...])
                return events
            }
        }
        pending = []
        return events
    }

    private enum Step {
        /// `used` bytes were read; they made `event`, or nothing the app uses.
        case event(InputEvent?, used: Int)
        /// The bytes from here may still become a sequence or a character.
        case needMore
    }

    private func step(_ bytes: [UInt8], at start: Int, final: Bool) -> Step {
        let byte = bytes[start]
        switch byte {
        case 0x1B:
            return escape(bytes, at: start, final: final)
        case 0x00..<0x20, 0x7F:
            return .event(control(byte), used: 1)
        case 0x20..<0x7F:
            return .event(.key(.character(Character(Unicode.Scalar(byte)))), used: 1)
        default:
            return utf8(bytes, at: start, final: final)
        }
    }

    private func control(_ byte: UInt8) -> InputEvent? {
        switch byte {
        case 0x0D, 0x0A: .key(.enter)
        case 0x09: .key(.tab)
        case 0x08, 0x7F: .key(.backspace)
        case 0x01...0x1A: .key(.control(Character(Unicode.Scalar(byte + 0x60))))
        default: nil  // NUL, FS, GS, RS, US
        }
    }

    // MARK: - UTF-8

    private func utf8(_ bytes: [UInt8], at start: Int, final: Bool) -> Step {
        let lead = bytes[start]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return .event(nil, used: 1)  // a stray continuation byte or an invalid lead
        }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length {
            guard start + offset < bytes.count else { return final ? .event(nil, used: bytes.count - start) : .needMore }
            let next = bytes[start + offset]
            guard next & 0xC0 == 0x80 else { return .event(nil, used: offset) }
            value = value << 6 | UInt32(next & 0x3F)
        }
        // Overlong forms, surrogates and C1 controls are not text.
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= minimum, value >= 0xA0, let scalar = Unicode.Scalar(value) else { return .event(nil, used: length) }
        return .event(.key(.character(Character(scalar))), used: length)
    }

    // MARK: - Escape sequences

    private func escape(_ bytes: [UInt8], at start: Int, final: Bool) -> Step {
        guard start + 1 < bytes.count else { return final ? .event(.key(.escape), used: 1) : .needMore }
        switch bytes[start + 1] {
        case UInt8(ascii: "["):
            return csi(bytes, at: start, final: final)
        case UInt8(ascii: "O"):
            guard start + 2 < bytes.count else { return final ? .event(nil, used: 2) : .needMore }
            let keys: [UInt8: Key] = [
                0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left, 0x48: .home, 0x46: .end,
                0x50: .function(1), 0x51: .function(2), 0x52: .function(3), 0x53: .function(4), 0x4D: .enter,
            ]
            return .event(keys[bytes[start + 2]].map(InputEvent.key), used: 3)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            // ESC and a digit in one read: Alt-digit, as terminals send it.
            return .event(.key(.alt(Character(UnicodeScalar(bytes[start + 1])))), used: 2)
        default:
            // ESC then a key: the Escape key, then that key (as ncurses reports Alt-x).
            return .event(.key(.escape), used: 1)
        }
    }

    /// `ESC [` parameters, intermediates and a final byte; `ESC [ M` plus three bytes (X10
    /// mouse); `ESC [ <` … `M`/`m` (SGR mouse); `ESC [ [ A` (Linux console F1).
    private func csi(_ bytes: [UInt8], at start: Int, final: Bool) -> Step {
        var index = start + 2
        guard index < bytes.count else { return final ? .event(nil, used: bytes.count - start) : .needMore }
        if bytes[index] == UInt8(ascii: "M") {
            guard index + 3 < bytes.count else { return final ? .event(nil, used: bytes.count - start) : .needMore }
            let button = Int(bytes[index + 1]) - 32
            let event = mouse(button: button, x: Int(bytes[index + 2]) - 33, y: Int(bytes[index + 3]) - 33, released: false)
            return .event(event, used: index + 4 - start)
        }
        if bytes[index] == UInt8(ascii: "[") {
            guard index + 1 < bytes.count else { return final ? .event(nil, used: bytes.count - start) : .needMore }
            let console: [UInt8: Key] = [
                0x41: .function(1), 0x42: .function(2), 0x43: .function(3), 0x44: .function(4), 0x45: .function(5),
            ]
            return .event(console[bytes[index + 1]].map(InputEvent.key), used: index + 2 - start)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if (0x40...0x7E).contains(byte) {
                let parameters = Array(bytes[(start + 2)..<index])
                return .event(csiEvent(parameters: parameters, final: byte), used: index + 1 - start)
            }
            guard (0x20...0x3F).contains(byte), index - start < Self.maximumSequenceLength else {
                // Not a sequence after all: drop what was read, keep the byte that broke it.
                return .event(nil, used: index - start)
            }
            index += 1
        }
        return final ? .event(nil, used: bytes.count - start) : .needMore
    }

    private func csiEvent(parameters: [UInt8], final: UInt8) -> InputEvent? {
        let text = String(decoding: parameters, as: UTF8.self)
        if text.hasPrefix("<"), final == UInt8(ascii: "M") || final == UInt8(ascii: "m") {
            let numbers = text.dropFirst().split(separator: ";").map { Int($0) }
            guard numbers.count == 3, let button = numbers[0], let x = numbers[1], let y = numbers[2] else { return nil }
            return mouse(button: button, x: x - 1, y: y - 1, released: final == UInt8(ascii: "m"))
        }
        // Modifiers (`1;5A` for Ctrl-↑) are ignored: the key is what matters here.
        let first = text.split(separator: ";").first.flatMap { Int($0) }
        switch final {
        case UInt8(ascii: "A"): return .key(.up)
        case UInt8(ascii: "B"): return .key(.down)
        case UInt8(ascii: "C"): return .key(.right)
        case UInt8(ascii: "D"): return .key(.left)
        case UInt8(ascii: "H"): return .key(.home)
        case UInt8(ascii: "F"): return .key(.end)
        case UInt8(ascii: "Z"): return .key(.backTab)
        case UInt8(ascii: "~"):
            let tilde: [Int: Key] = [
                1: .home, 7: .home, 4: .end, 8: .end, 3: .delete, 5: .pageUp, 6: .pageDown,
                11: .function(1), 12: .function(2), 13: .function(3), 14: .function(4), 15: .function(5),
                17: .function(6), 18: .function(7), 19: .function(8), 20: .function(9), 21: .function(10),
                23: .function(11), 24: .function(12),
            ]
            return first.flatMap { tilde[$0] }.map(InputEvent.key)
        default:
            return nil
        }
    }

    /// xterm's button code: the low two bits are the button (3 is a release in X10), 64 adds
    /// the wheel, 32 motion, 4/8/16 the modifiers.
    private func mouse(button code: Int, x: Int, y: Int, released: Bool) -> InputEvent? {
        guard code >= 0, x >= 0, y >= 0, code & 32 == 0, !released else { return nil }
        if code & 64 != 0 {
            switch code & 3 {
            case 0: return .mouse(.wheelUp(x: x, y: y))
            case 1: return .mouse(.wheelDown(x: x, y: y))
            default: return nil
            }
        }
        return code & 3 == 0 ? .mouse(.click(x: x, y: y)) : nil
    }
}
