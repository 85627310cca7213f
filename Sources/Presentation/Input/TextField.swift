import SharedKernel

/// An editable line of text: any Unicode, a cursor that moves by character, and horizontal
/// scrolling when the text is wider than the field. A value type, so every edit is testable.
public struct TextField: Hashable, Sendable {
    public private(set) var text: String
    /// The cursor, in characters from the start: 0...text.count.
    public private(set) var cursor: Int
    /// The whole text is selected: typing replaces it, an arrow key starts editing it.
    public private(set) var isAllSelected = false

    public init(text: String = "", selected: Bool = false) {
        self.text = text
        self.cursor = text.count
        self.isAllSelected = selected && !text.isEmpty
    }

    /// The same field with every character shown as `mask`, for passwords.
    public func masked(_ mask: Character = "•") -> TextField {
        var copy = TextField(text: String(repeating: mask, count: text.count))
        copy.cursor = cursor
        return copy
    }

    /// Applies an editing key; returns whether it was one.
    public mutating func handle(_ key: Key) -> Bool {
        if isAllSelected {
            isAllSelected = false
            switch key {
            case .character(let character) where !character.unicodeScalars.contains(where: PrintableText.isRemoved):
                text = ""
                cursor = 0
            case .backspace, .delete:
                text = ""
                cursor = 0
                return true
            case .left, .home, .control("a"):
                cursor = 0
                return true
            case .right, .end, .control("e"):
                cursor = text.count
                return true
            default:
                break
            }
        }
        switch key {
        case .character(let character):
            guard !character.unicodeScalars.contains(where: PrintableText.isRemoved) else { return false }
            let index = text.index(text.startIndex, offsetBy: cursor)
            // A combining mark, a skin tone or the second half of a flag joins the character
            // before it, so the cursor moves by however many characters the text really grew.
            let before = String(text[..<index]) + String(character)
            text = before + String(text[index...])
            cursor = min(before.count, text.count)
        case .left:
            cursor = max(0, cursor - 1)
        case .right:
            cursor = min(text.count, cursor + 1)
        case .home, .control("a"):
            cursor = 0
        case .end, .control("e"):
            cursor = text.count
        case .backspace:
            guard cursor > 0 else { return true }
            text.remove(at: text.index(text.startIndex, offsetBy: cursor - 1))
            // Removing a character can let its neighbours join into one (two flag halves).
            cursor = min(cursor - 1, text.count)
        case .delete:
            guard cursor < text.count else { return true }
            text.remove(at: text.index(text.startIndex, offsetBy: cursor))
            cursor = min(cursor, text.count)
        case .control("u"):
            text = ""
            cursor = 0
        default:
            return false
        }
        return true
    }
}

/// The editing keys every text field shares, declared once for the help.
public enum TextFieldKeys {
    public static let all = [
        KeyDeclaration("←→ Home End", "move", help: "move the cursor (Ctrl-A, Ctrl-E: start, end)", inFooter: false),
        KeyDeclaration("Backspace Delete", "erase", help: "erase before or at the cursor", inFooter: false),
        KeyDeclaration("Ctrl-U", "clear", help: "clear the field", inFooter: false),
    ]
}
