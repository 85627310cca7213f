/// Text from data made safe to print anywhere (a terminal, stderr, a log): what neither a
/// screen nor a log line may carry. The one rule for every output, and for what an import
/// accepts as "saying something".
public enum PrintableText {
    /// Removes control characters and terminal escape sequences (CSI, OSC, DCS and friends),
    /// so that no text from data can move the cursor, retitle the window or ring the bell; and
    /// invisible format characters (bidi overrides and isolates, zero-width spaces and
    /// joiners, the BOM), so that what shows is what is there. Tabs and newlines become
    /// single spaces, unless `keepingNewlines`.
    public static func sanitize(_ text: some StringProtocol, keepingNewlines: Bool = false) -> String {
        // Fast paths: most text has nothing to remove, and most of that is printable ASCII,
        // checked a byte at a time (every cell of every frame comes through here).
        let printableASCII = text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
        if printableASCII == true || !text.unicodeScalars.contains(where: isRemoved) { return String(text) }

        var result = String.UnicodeScalarView()
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let scalar = pending {
                pending = nil
                return scalar
            }
            return iterator.next()
        }
        while let scalar = next() {
            switch scalar.value {
            case 0x0A where keepingNewlines:
                result.append("\n")
            case 0x09, 0x0A, 0x0D:
                result.append(" ")
            case 0x1B:
                skipEscapeSequence(next: next, pushBack: { pending = $0 })
            case 0x9B:
                skipUntilFinalByte(next: next)
            case 0x90, 0x9D, 0x9E, 0x9F, 0x98:
                skipStringSequence(next: next)
            default:
                if !isRemoved(scalar) { result.append(scalar) }
            }
        }
        return String(result)
    }

    /// C0 and C1 control characters and DEL.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
    }

    /// What `sanitize` removes: controls, and format characters (Unicode's `Cf`: bidi
    /// controls, zero-width space, non-joiner and joiner, word joiner, BOM, soft hyphen…).
    /// A zero-width joiner goes too, emoji sequences included: terminals draw a joined
    /// family as one glyph or several, and only the separate emoji have a width every
    /// terminal agrees on.
    public static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value < 0x20 || scalar.value == 0x7F }
        return scalar.value < 0xA0 || scalar.properties.generalCategory == .format
    }

    // MARK: - Escape sequences

    static func skipEscapeSequence(next: () -> Unicode.Scalar?, pushBack: (Unicode.Scalar) -> Void) {
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
    static func skipUntilFinalByte(next: () -> Unicode.Scalar?) {
        while let byte = next() {
            if byte.value >= 0x40 && byte.value <= 0x7E { return }
            if byte.value > 0x7E { return }
        }
    }

    /// OSC, DCS, SOS, PM, APC: everything up to BEL or the string terminator `ESC \`.
    static func skipStringSequence(next: () -> Unicode.Scalar?) {
        while let byte = next() {
            if byte.value == 0x07 || byte.value == 0x9C { return }
            if byte.value == 0x1B {
                _ = next()
                return
            }
        }
    }
}
