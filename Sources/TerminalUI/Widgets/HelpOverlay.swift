import Presentation
import SharedKernel

/// A titled group of keys in the help overlay.
public struct HelpSection: Hashable, Sendable {
    public var title: LocalizedText
    public var keys: [KeyHint]

    public init(_ title: LocalizedText, keys: [KeyHint]) {
        self.title = title
        self.keys = keys
    }
}

/// The `?` overlay: a box over the screen listing every key, scrolled when it does not fit.
public enum HelpOverlay {
    public static let title: LocalizedText = "Keys"
    static let closeHint: LocalizedText = "? or Esc closes"

    private enum Line: Equatable {
        case heading(String)
        /// A key and the first line of what it does.
        case key(key: String, label: String)
        /// The rest of a long description, wrapped under its first line.
        case more(String)
        case blank
    }

    /// How far the content can scroll in a terminal area of this size.
    public static func maximumOffset(_ sections: [HelpSection], area: Rect, texts: Texts) -> Int {
        let box = layout(sections, area: area, texts: texts)
        return max(0, box.lines.count - box.contentRows)
    }

    /// Draws the box centred over `area`, its content scrolled down by `offset` lines.
    public static func draw(_ sections: [HelpSection], in canvas: inout some Canvas, area: Rect, offset: Int, texts: Texts) {
        let box = layout(sections, area: area, texts: texts)
        let lines = box.lines
        guard box.rect.width >= 12, box.contentRows > 0 else { return }
        let offset = min(max(0, offset), max(0, lines.count - box.contentRows))
        let rect = box.rect
        canvas.fill(rect, style: .normal)

        let inner = rect.width - 2
        Box.draw(in: &canvas, rect: rect, title: texts(title))
        let more = offset + box.contentRows < lines.count ? texts("↓ more") + "  " : (offset > 0 ? texts("↑ more") + "  " : "")
        let footer = " \(more)\(texts(closeHint)) "
        canvas.draw(footer, x: rect.maxX - 2 - footer.displayWidth, y: rect.maxY - 1, width: inner - 2, style: .dim)

        let textX = rect.x + 2
        let textWidth = inner - 2
        for (row, line) in lines.dropFirst(offset).prefix(box.contentRows).enumerated() {
            let y = rect.y + 1 + row
            switch line {
            case .heading(let text):
                canvas.draw(text, x: textX, y: y, width: textWidth, style: .accent)
            case .key(let key, let label):
                canvas.draw(key, x: textX, y: y, width: box.keyColumn - 1, style: .key)
                canvas.draw(label, x: textX + box.keyColumn, y: y, width: textWidth - box.keyColumn, style: .normal)
            case .more(let text):
                canvas.draw(text, x: textX + box.keyColumn, y: y, width: textWidth - box.keyColumn, style: .normal)
            case .blank:
                break
            }
        }
    }

    /// The lines for descriptions `labelWidth` wide: a long one wraps under itself.
    private static func lines(_ sections: [HelpSection], labelWidth: Int, texts: Texts) -> [Line] {
        var lines: [Line] = []
        for section in sections where !section.keys.isEmpty {
            if !lines.isEmpty { lines.append(.blank) }
            lines.append(.heading(texts(section.title)))
            for hint in section.keys {
                let wrapped = TextWrapper.wrap(texts(hint.label), width: max(8, labelWidth))
                lines.append(.key(key: hint.shownKey(texts), label: wrapped.first ?? ""))
                lines += wrapped.dropFirst().map(Line.more)
            }
        }
        return lines
    }

    private static func layout(
        _ sections: [HelpSection], area: Rect, texts: Texts
    ) -> (rect: Rect, contentRows: Int, keyColumn: Int, lines: [Line]) {
        let keys = sections.flatMap(\.keys)
        let keyColumn = min(18, (keys.map { $0.shownKey(texts).displayWidth }.max() ?? 0) + 2)
        let labelWidth = keys.map { texts($0.label).displayWidth }.max() ?? 0
        let headingWidth = sections.map { texts($0.title).displayWidth }.max() ?? 0
        let wanted = max(keyColumn + labelWidth, headingWidth, texts(closeHint).displayWidth + 10) + 4
        let width = min(wanted, area.width - 2)
        let lines = lines(sections, labelWidth: width - 4 - keyColumn, texts: texts)
        let height = min(lines.count + 2, area.height)
        let rect = Rect(
            x: area.x + max(0, (area.width - width) / 2),
            y: area.y + max(0, (area.height - height) / 2),
            width: width,
            height: height
        )
        return (rect, height - 2, keyColumn, lines)
    }
}
