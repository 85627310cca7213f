/// A key as the app understands it, whatever bytes the terminal sent.
public enum Key: Hashable, Sendable {
    /// A printable character, including any Unicode.
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab, backTab
    /// Ctrl with a letter, as the lowercase letter: Ctrl-C is `.control("c")`.
    case control(Character)
    /// Alt with a digit, as the terminal sends it (ESC, then the digit, at once): the tabs
    /// where the digits pick an answer.
    case alt(Character)
    case function(Int)
}

extension Key {
    /// A printable character: text, in a field.
    public var isCharacter: Bool {
        if case .character = self { return true }
        return false
    }

    /// The key a person writes as `name`: one character (`e`, `/`), `Enter`, `Esc`, `Space`,
    /// `Backspace`, `Tab`, or `Ctrl-` and a letter; `nil` for anything else (`↑↓`, `PgUp PgDn`).
    public init?(named name: String) {
        switch name {
        case "Enter": self = .enter
        case "Esc": self = .escape
        case "Space": self = .character(" ")
        case "Backspace": self = .backspace
        case "Tab": self = .tab
        case _ where name.count == 1: self = .character(name.first ?? " ")
        case _ where name.hasPrefix("Ctrl-") && name.count == 6:
            guard let letter = name.last?.lowercased().first, letter.isLetter else { return nil }
            self = .control(letter)
        default: return nil
        }
    }
}

/// A mouse action at a cell.
public enum MouseEvent: Hashable, Sendable {
    case click(x: Int, y: Int)
    /// A second click on the same cell soon after the first (which came as `click`).
    case doubleClick(x: Int, y: Int)
    case wheelUp(x: Int, y: Int)
    case wheelDown(x: Int, y: Int)
}

/// Everything that can happen at the keyboard, mouse or window.
public enum InputEvent: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    /// The terminal changed size; the next frame is drawn at the new size.
    case resize

    /// Shorthand for a printable character key.
    public static func char(_ character: Character) -> InputEvent { .key(.character(character)) }
}
