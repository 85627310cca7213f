import Markdown
import Presentation
import TerminalUI
import Testing

/// The reader lays a lesson out only as far as it is read: the lines, anchors and links come
/// out the same as laying it all out at once, however it is reached.
@Suite("Markdown laid out as far as it is read")
struct IncrementalMarkdownLayoutTests {
    /// A long lesson: 200 sections of headings, wrapped text with links, lists, quotes, code.
    static let long = MarkdownText(
        parsing: (1...200).map { section in
            """
            ## Section \(section)

            Text with *emphasis*, `code` and [a link](https://example.org/\(section % 7)) that runs long enough to wrap.

            - a point
              - nested
            > a quote

            ```
            let x = \(section)
            ```
            """
        }.joined(separator: "\n\n"))

    @Test("drawn a screen at a time, from the top, the middle or the end, the lines are the whole layout's", arguments: [24, 80])
    func sameLines(width: Int) {
        let whole = Self.long.layout(width: width)
        for top in [0, 37, whole.lines.count / 2, whole.lines.count - 10] {
            let incremental = Self.long.incrementalLayout(width: width)
            var canvas = TextCanvas(size: Size(width: width, height: 20))
            var expected = TextCanvas(size: Size(width: width, height: 20))
            incremental.draw(in: &canvas, rect: Rect(x: 0, y: 0, width: width, height: 20), top: top)
            whole.draw(in: &expected, rect: Rect(x: 0, y: 0, width: width, height: 20), top: top)
            #expect(canvas.cells == expected.cells, "top \(top)")
            #expect(canvas.links == expected.links, "top \(top)")
        }
        let all = Self.long.incrementalLayout(width: width)
        all.prepare(lines: .max)
        #expect(all.isComplete)
        #expect(all.lineCount == whole.lines.count, "the links listed at the end included")
    }

    @Test("the first screen lays out only the blocks it shows; the end, everything")
    func onlyWhatIsRead() {
        let text = Self.long.incrementalLayout(width: 80)
        var canvas = TextCanvas(size: Size(width: 80, height: 20))
        text.draw(in: &canvas, rect: Rect(x: 0, y: 0, width: 80, height: 20), top: 0)
        #expect(text.lineCount < 40, "\(text.lineCount) lines for a screen of 20")
        #expect(!text.isComplete)
        text.prepare(lines: .max)
        #expect(text.isComplete)
    }

    @Test("anchors are the whole layout's, and a position found at another width lays out no less than it needs")
    func anchors() {
        let narrow = Self.long.layout(width: 30)
        let wide = Self.long.layout(width: 90)
        for line in [0, 5, 400, narrow.lines.count - 1] {
            let incremental = Self.long.incrementalLayout(width: 30)
            let anchor = incremental.anchor(ofLine: line)
            #expect(anchor == narrow.anchor(ofLine: line))
            let other = Self.long.incrementalLayout(width: 90)
            #expect(other.line(forAnchor: anchor) == wide.line(forAnchor: anchor), "line \(line)")
        }
    }

    @Test("an empty document is complete at once, with no lines")
    func empty() {
        let text = MarkdownText(parsing: "").incrementalLayout(width: 40)
        #expect(text.isComplete)
        #expect(text.lineCount == 0)
    }
}
