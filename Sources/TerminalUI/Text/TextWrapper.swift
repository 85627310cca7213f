/// Wraps text into lines of at most a number of columns, breaking at spaces where it can.
public enum TextWrapper {
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(contentsOf: wrapParagraph(TerminalText.sanitize(String(paragraph)), width: width))
        }
        return lines
    }

    private static func wrapParagraph(_ paragraph: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in paragraph.split(separator: " ") {
            var word = Substring(word)
            var wordWidth = word.displayWidth
            if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if lineWidth > 0 {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            // A word longer than the line is split at the column limit.
            while wordWidth > width {
                let (head, rest) = splitPrefix(of: word, width: width)
                lines.append(String(head))
                word = rest
                wordWidth = word.displayWidth
            }
            line = String(word)
            lineWidth = wordWidth
        }
        lines.append(line)
        return lines
    }

    private static func splitPrefix(of word: Substring, width: Int) -> (Substring, Substring) {
        var used = 0
        var index = word.startIndex
        while index < word.endIndex {
            let characterWidth = word[index].displayWidth
            if used + characterWidth > width { break }
            used += characterWidth
            index = word.index(after: index)
        }
        if index == word.startIndex { index = word.index(after: index) }  // always make progress
        return (word[..<index], word[index...])
    }
}
