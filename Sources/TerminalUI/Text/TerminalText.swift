import Presentation
import SharedKernel

/// Text helpers for drawing data safely and within a number of columns, at a cost bounded by
/// the columns drawn, however long the text is.
public enum TerminalText {
    /// Removes control characters and terminal escape sequences (`PrintableText.sanitize`).
    public static func sanitize(_ text: some StringProtocol, keepingNewlines: Bool = false) -> String {
        PrintableText.sanitize(text, keepingNewlines: keepingNewlines)
    }

    /// C0 and C1 control characters and DEL.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        PrintableText.isControl(scalar)
    }

    /// What `sanitize` removes (`PrintableText.isRemoved`).
    public static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
        PrintableText.isRemoved(scalar)
    }

    /// The most scalars that can matter for `width` columns: enough for wide, combining and
    /// multi-scalar characters, so a megabyte of text costs no more to draw than a word.
    static func scalarBudget(forWidth width: Int) -> Int {
        width * 4 + 16
    }

    /// The start of `text` that can matter for `width` columns, and whether anything was cut.
    public static func boundedPrefix(_ text: String, width: Int) -> (text: Substring, isCut: Bool) {
        let scalars = text.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: scalarBudget(forWidth: max(0, width)), limitedBy: scalars.endIndex),
            end < scalars.endIndex
        else { return (text[...], false) }
        return (Substring(scalars[..<end]), true)
    }

    /// `text` ready to draw in `width` columns: the part that can show, sanitised, cut with `…`
    /// when it does not fit (or was longer than what could show).
    public static func clean(_ text: String, width: Int) -> String {
        let (prefix, isCut) = boundedPrefix(text, width: width)
        return truncate(sanitize(prefix), toWidth: width, ellipsis: isCut)
    }

    /// Cuts `text` to at most `width` columns, ending with `…` when something was cut (or,
    /// with `ellipsis`, in any case because the caller cut it already). Reads only as far as
    /// the width reaches.
    public static func truncate(_ text: String, toWidth width: Int, ellipsis: Bool = false) -> String {
        guard width > 0 else { return "" }
        var used = 0
        // Where the text would end if it had to leave a column for `…`.
        var cutIndex = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let characterWidth = text[index].displayWidth
            if used + characterWidth > width { return String(text[..<cutIndex]) + "…" }
            used += characterWidth
            index = text.index(after: index)
            if used <= width - 1 { cutIndex = index }
        }
        guard ellipsis else { return text }
        return String(text[..<cutIndex]) + "…"
    }

    /// `text` cut or padded with spaces to exactly `width` columns.
    public static func fit(_ text: String, toWidth width: Int) -> String {
        let cut = truncate(text, toWidth: width)
        let padding = width - cut.displayWidth
        return padding > 0 ? cut + String(repeating: " ", count: padding) : cut
    }
}
