/// A key as the app understands it, whatever bytes the terminal sent.
public enum Key: Hashable, Sendable {
    /// A printable character, including any Unicode.
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab, backTab
    /// Ctrl with a letter, as the lowercase letter: Ctrl-C is `.control("c")`.
    case control(Character)
    case function(Int)
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
