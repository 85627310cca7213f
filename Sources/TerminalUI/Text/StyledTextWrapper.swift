import Presentation

/// Wraps styled text exactly as `LineBreaker` wraps plain text, each character keeping the
/// style (and link) it came with.
enum StyledTextWrapper {
    struct WrappedLine: Hashable, Sendable {
        var line: StyledLine
        /// Where the line starts in the sanitised text, in UTF-8 bytes.
        var offset: Int
    }

    /// The lines of `spans` within `width` columns (a `\n` in a span breaks the line), and
    /// the length of their sanitised text in UTF-8 bytes. Linear in the text.
    static func wrap(_ spans: [StyledSpan], width: Int) -> (lines: [WrappedLine], length: Int) {
        var text = ""
        var runEnds: [Int] = []
        for span in spans {
            text += TerminalText.sanitize(span.text, keepingNewlines: true)
            runEnds.append(text.utf8.count)
        }
        // The breaker drops spaces (runs of them, and at a line's ends) and newlines, and
        // keeps every other scalar in order: walking its lines and the text side by side
        // finds each scalar's place, so its style and the line's offset.
        let scalars = text.unicodeScalars
        var source = scalars.startIndex
        var sourceOffset = 0
        var run = 0
        var lines: [WrappedLine] = []
        var breaker = LineBreaker(text, width: max(1, width))
        while let plain = breaker.next() {
            var line: [StyledSpan] = []
            var start: Int?
            for scalar in plain.unicodeScalars {
                while source < scalars.endIndex, scalars[source] != scalar, scalars[source] == " " || scalars[source] == "\n" {
                    sourceOffset += UTF8.width(scalars[source])
                    source = scalars.index(after: source)
                }
                guard source < scalars.endIndex else { break }
                if start == nil { start = sourceOffset }
                while run < runEnds.count - 1, runEnds[run] <= sourceOffset { run += 1 }
                let (style, link) = (spans[run].style, spans[run].link)
                if let last = line.indices.last, line[last].style == style, line[last].link == link {
                    line[last].text.unicodeScalars.append(scalar)
                } else {
                    line.append(StyledSpan(String(scalar), style: style, link: link))
                }
                sourceOffset += UTF8.width(scalar)
                source = scalars.index(after: source)
            }
            lines.append(WrappedLine(line: StyledLine(line), offset: start ?? sourceOffset))
        }
        return (lines, text.utf8.count)
    }
}
