import Presentation

/// Wraps text into lines of at most a number of columns, breaking at spaces where it can and
/// splitting words longer than a line. Linear in the text: every character is measured at
/// most twice, however long a word is.
public enum TextWrapper {
    /// Every line of `text`, sanitised; newlines start new paragraphs.
    public static func wrap(_ text: String, width: Int) -> [String] {
        var breaker = LineBreaker(TerminalText.sanitize(text, keepingNewlines: true), width: width)
        var lines: [String] = []
        while let line = breaker.next() {
            lines.append(line)
        }
        return lines
    }
}

/// Produces the wrapped lines of an already sanitised text one at a time, so a screen can
/// wrap only as far as it shows.
public struct LineBreaker: IteratorProtocol, Sendable {
    private let text: String
    private let width: Int
    private var position: String.Index
    private var finished = false

    public init(_ sanitized: String, width: Int) {
        self.text = sanitized
        self.width = width
        self.position = sanitized.startIndex
        self.finished = width <= 0
    }

    public mutating func next() -> String? {
        guard !finished else { return nil }
        var line = ""
        var lineWidth = 0
        // The last space on this line: where the line would end, and the next one start.
        var lastBreak: (end: String.Index, resume: String.Index)?
        var index = position
        while index < text.endIndex {
            let character = text[index]
            let after = text.index(after: index)
            if character == "\n" {
                position = after
                return line.trimmingTrailingSpaces()
            }
            if character == " " {
                // Spaces at the start of a line, and runs of them, collapse.
                if lineWidth > 0, line.last != " " {
                    lastBreak = (line.endIndex, after)
                    line.append(" ")
                    lineWidth += 1
                }
                index = after
                continue
            }
            let characterWidth = character.displayWidth
            if lineWidth + characterWidth > width {
                if let lastBreak {
                    position = lastBreak.resume
                    return String(line[..<lastBreak.end])
                }
                if lineWidth > 0 {
                    // A word longer than the line is split at the column limit.
                    position = index
                    return line
                }
                // A character wider than the whole line still makes progress, on a line of its
                // own (with any zero-width marks read before it).
                position = after
                return line + String(character)
            }
            line.append(character)
            lineWidth += characterWidth
            index = after
        }
        finished = true
        position = text.endIndex
        return line.trimmingTrailingSpaces()
    }
}

/// The wrapped lines of a text, computed only as far as they are asked for and kept, so
/// scrolling through a long description costs a page of wrapping, not the whole text.
public struct WrappedText: Sendable {
    public let width: Int
    private var breaker: LineBreaker
    public private(set) var lines: [String] = []
    public private(set) var isComplete = false

    public init(_ sanitized: String, width: Int) {
        self.width = width
        self.breaker = LineBreaker(sanitized, width: width)
    }

    /// Makes sure the first `count` lines (or all there are) are wrapped.
    public mutating func wrap(upTo count: Int) {
        while !isComplete, lines.count < count {
            if let line = breaker.next() {
                lines.append(line)
            } else {
                isComplete = true
            }
        }
    }

    /// Wraps everything (for a jump to the end).
    public mutating func wrapAll() {
        wrap(upTo: .max)
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
