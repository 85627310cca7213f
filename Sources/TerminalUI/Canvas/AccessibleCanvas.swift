import Presentation

/// The accessible mode's canvas (`--accessible`): it draws into `base` with no box drawing,
/// block or spinner characters (they become spaces, so nothing else moves), and keeps where
/// the focus is, for the cursor. Widgets see `isAccessible` and draw words for their marks.
public struct AccessibleCanvas<Base: Canvas>: Canvas {
    public private(set) var base: Base
    /// The last place a widget marked as the focus on this frame.
    public private(set) var focus: (x: Int, y: Int)?

    public init(_ base: Base) {
        self.base = base
    }

    public var size: Size { base.size }
    public var isAccessible: Bool { true }
    public var cursor: (x: Int, y: Int)? { base.cursor }

    public mutating func write(_ text: String, x: Int, y: Int, style: Style) {
        base.write(Decoration.removed(from: text), x: x, y: y, style: style)
    }

    public mutating func setCursor(_ position: (x: Int, y: Int)?) {
        base.setCursor(position)
    }

    public mutating func markLink(_ address: String, x: Int, y: Int, width: Int) {
        base.markLink(address, x: x, y: y, width: width)
    }

    public mutating func markFocus(x: Int, y: Int) {
        focus = (x, y)
    }
}

/// The characters that only decorate: what the accessible mode draws as spaces.
enum Decoration {
    /// `text` with each decorative character a space: box drawing (U+2500–257F), blocks
    /// (U+2580–259F) and braille spinner frames (U+2800–28FF), all one column wide.
    static func removed(from text: String) -> String {
        guard text.unicodeScalars.contains(where: { isDecoration($0) }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(isDecoration(scalar) ? " " : scalar) }
        return String(scalars)
    }

    static func isDecoration(_ scalar: Unicode.Scalar) -> Bool {
        (0x2500...0x259F).contains(scalar.value) || (0x2800...0x28FF).contains(scalar.value)
    }
}
