import Presentation
import SharedKernel

/// One thing the command palette can do: an action of the screen in front or a global one,
/// with the keys that do it and what it does. Running it is pressing its key.
public struct PaletteItem: Hashable, Sendable {
    /// The keys in force, as the footer writes them.
    public var keys: String
    public var title: String
    /// The action's name (`catalog.search`), matched too.
    public var name: String
    /// What pressing it sends (the action's default key: bindings are not applied again).
    public var key: Key
    /// Why it cannot act now, for an action listed all the same (drawn dim, with the reason;
    /// running it says why, as its key would).
    public var unavailable: String?

    public init(keys: String, title: String, name: String, key: Key, unavailable: String? = nil) {
        self.keys = keys
        self.title = title
        self.name = name
        self.key = key
        self.unavailable = unavailable
    }
}

/// The command palette (`:` or `Ctrl-P`): a field, and every action that can be asked now,
/// filtered fuzzily as the field is typed; `Enter` runs the selected one.
public struct CommandPalette: Hashable, Sendable {
    public private(set) var field = TextField()
    public private(set) var selected = 0

    public init() {}

    /// `items` as the field filters them, best first.
    public func shown(_ items: [PaletteItem]) -> [PaletteItem] {
        FuzzyMatch.filter(items, query: field.text) { "\($0.title) \($0.name)" }
    }

    /// What a key does while the palette shows.
    public enum Outcome: Equatable {
        case stay
        case close
        case run(PaletteItem)
    }

    public mutating func handle(_ key: Key, items: [PaletteItem]) -> Outcome {
        let count = shown(items).count
        switch key {
        case .escape: return .close
        case .enter: return shown(items).dropFirst(selected).first.map(Outcome.run) ?? .stay
        case .up, .control("p"): selected = max(0, selected - 1)
        case .down, .control("n"): selected = min(max(0, count - 1), selected + 1)
        case .pageUp: selected = max(0, selected - 10)
        case .pageDown: selected = min(max(0, count - 1), selected + 10)
        default:
            if field.handle(key) { selected = 0 }
        }
        return .stay
    }

    /// Draws the box over `area`: the field, then the items, the selected one highlighted.
    public func draw(_ items: [PaletteItem], in canvas: inout some Canvas, area: Rect, texts: Texts) {
        let width = min(area.width - 2, 76)
        let height = min(area.height, 18)
        guard width >= 20, height >= 4 else { return }
        let box = Rect(x: area.x + (area.width - width) / 2, y: area.y + 1, width: width, height: height - 1)
        canvas.fill(box, style: .normal)
        Box.draw(in: &canvas, rect: box, title: texts("Actions"))
        let inner = Rect(x: box.x + 2, y: box.y + 1, width: box.width - 4, height: box.height - 2)
        canvas.draw(":", x: inner.x, y: inner.y, style: .accent)
        field.draw(in: &canvas, x: inner.x + 2, y: inner.y, width: inner.width - 2, focused: true)
        let shown = shown(items)
        let rows = max(0, inner.height - 2)
        guard !shown.isEmpty else {
            canvas.draw(texts("No action matches"), x: inner.x, y: inner.y + 2, width: inner.width, style: .dim)
            return
        }
        let keyWidth = min(16, (shown.map { KeyHint.shown($0.keys, texts).displayWidth }.max() ?? 0) + 2)
        // An action says what it does in full, and one that cannot run why: a long title and
        // its reason wrap under it, never cut.
        let textWidth = inner.width - keyWidth
        let lines = shown.map { item in
            TextWrapper.wrap(item.unavailable.map { "\(item.title) — \($0)" } ?? item.title, width: textWidth)
        }
        // From the top while the selected item fits below; else the selected item last.
        var first = min(selected, shown.count - 1)
        var used = lines[first].count
        while first > 0, used + lines[first - 1].count <= rows {
            first -= 1
            used += lines[first].count
        }
        var y = inner.y + 2
        for index in first..<shown.count {
            let item = shown[index]
            guard y < inner.y + 2 + rows else { break }
            let isSelected = index == selected
            for (number, line) in lines[index].enumerated() where y < inner.y + 2 + rows {
                if isSelected { canvas.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: .selection) }
                if number == 0 {
                    canvas.draw(
                        KeyHint.shown(item.keys, texts), x: inner.x, y: y, width: keyWidth - 1, style: isSelected ? .selection : .key)
                }
                canvas.draw(
                    line, x: inner.x + keyWidth, y: y, width: textWidth,
                    style: isSelected ? .selection : item.unavailable == nil ? .normal : .dim)
                y += 1
            }
        }
    }
}
