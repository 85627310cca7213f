/// Text helpers for drawing data safely and within a number of columns.
public enum TerminalText {
    /// Removes control characters and terminal escape sequences (CSI, OSC, DCS and friends),
    /// so that no text from data can move the cursor, retitle the window or ring the bell.
    /// Tabs and newlines become single spaces.
    public static func sanitize(_ text: String) -> String {
        // Fast path: most text has nothing to remove.
        if !text.unicodeScalars.contains(where: isControl) { return text }

        var result = String.UnicodeScalarView()
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let scalar = pending { pending = nil; return scalar }
            return iterator.next()
        }
        while let scalar = next() {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D:
                result.append(" ")
            case 0x1B:
                skipEscapeSequence(next: next, pushBack: { pending = $0 })
            case 0x9B:
                skipUntilFinalByte(next: next)
            case 0x90, 0x9D, 0x9E, 0x9F, 0x98:
                skipStringSequence(next: next)
            case let value where value < 0x20 || (value >= 0x7F && value < 0xA0):
                continue
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Cuts `text` to at most `width` columns, ending with `…` when something was cut.
    public static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if text.displayWidth <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = character.displayWidth
            if used + characterWidth > width - 1 { break }
            result.append(character)
            used += characterWidth
        }
        return result + "…"
    }

    /// `text` cut or padded with spaces to exactly `width` columns.
    public static func fit(_ text: String, toWidth width: Int) -> String {
        let cut = truncate(text, toWidth: width)
        let padding = width - cut.displayWidth
        return padding > 0 ? cut + String(repeating: " ", count: padding) : cut
    }

    // MARK: - Escape sequences

    /// C0 and C1 control characters and DEL: what `sanitize` removes.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
    }

    private static func skipEscapeSequence(next: () -> Unicode.Scalar?, pushBack: (Unicode.Scalar) -> Void) {
        guard let introducer = next() else { return }
        switch introducer {
        case "[":
            skipUntilFinalByte(next: next)
        case "]", "P", "X", "^", "_":
            skipStringSequence(next: next)
        case let scalar where scalar.value >= 0x20 && scalar.value < 0x30:
            // ESC with intermediate bytes (e.g. `ESC ( B`): skip through the final byte.
            while let byte = next() {
                if byte.value >= 0x30 { break }
            }
        case let scalar where scalar.value < 0x20:
            // A control right after ESC starts over; keep it for the main loop to judge.
            pushBack(scalar)
        default:
            break  // a two-character sequence such as `ESC c` or `ESC 7`
        }
    }

    /// CSI: parameter and intermediate bytes, then one final byte in 0x40...0x7E.
    private static func skipUntilFinalByte(next: () -> Unicode.Scalar?) {
        while let byte = next() {
            if byte.value >= 0x40 && byte.value <= 0x7E { return }
            if byte.value > 0x7E { return }
        }
    }

    /// OSC, DCS, SOS, PM, APC: everything up to BEL or the string terminator `ESC \`.
    private static func skipStringSequence(next: () -> Unicode.Scalar?) {
        while let byte = next() {
            if byte.value == 0x07 || byte.value == 0x9C { return }
            if byte.value == 0x1B {
                _ = next()
                return
            }
        }
    }
}
