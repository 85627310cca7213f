/// Selection and scroll position of a list; pure, so every list moves the same way.
public struct ListState: Hashable, Sendable {
    public private(set) var selectedIndex: Int
    public private(set) var scrollOffset: Int

    public init(selectedIndex: Int = 0, scrollOffset: Int = 0) {
        self.selectedIndex = max(0, selectedIndex)
        self.scrollOffset = max(0, scrollOffset)
    }

    /// Moves the selection for the list keys (`↑↓ jk PgUp PgDn Home End gG`).
    /// Returns whether the key was a list key.
    public mutating func handle(_ key: Key, itemCount: Int, pageSize: Int) -> Bool {
        let page = max(1, pageSize)
        switch key {
        case .up, .character("k"): move(by: -1, itemCount: itemCount, pageSize: page)
        case .down, .character("j"): move(by: 1, itemCount: itemCount, pageSize: page)
        case .pageUp: move(by: -page, itemCount: itemCount, pageSize: page)
        case .pageDown: move(by: page, itemCount: itemCount, pageSize: page)
        case .control("u"): move(by: -ListKeys.halfPage(page), itemCount: itemCount, pageSize: page)
        case .control("d"): move(by: ListKeys.halfPage(page), itemCount: itemCount, pageSize: page)
        case .home, .character("g"): select(0, itemCount: itemCount, pageSize: page)
        case .end, .character("G"): select(itemCount - 1, itemCount: itemCount, pageSize: page)
        default: return false
        }
        return true
    }

    public mutating func move(by delta: Int, itemCount: Int, pageSize: Int) {
        select(selectedIndex + delta, itemCount: itemCount, pageSize: pageSize)
    }

    /// Selects `index` (clamped to the list) and scrolls just enough to show it.
    public mutating func select(_ index: Int, itemCount: Int, pageSize: Int) {
        guard itemCount > 0 else {
            self = ListState()
            return
        }
        selectedIndex = min(max(0, index), itemCount - 1)
        scrollOffset = Self.offset(keeping: selectedIndex, visible: scrollOffset, height: max(1, pageSize), itemCount: itemCount)
    }

    /// Follows the rows when `delta` rows were added (positive) or removed (negative) above
    /// the selection, so the same row stays selected at the same place on screen.
    mutating func shift(by delta: Int) {
        selectedIndex = max(0, selectedIndex + delta)
        scrollOffset = max(0, scrollOffset + delta)
    }

    /// The rows to draw in a viewport of `height` rows: only these are ever touched.
    public func visibleRange(itemCount: Int, height: Int) -> Range<Int> {
        guard itemCount > 0, height > 0 else { return 0..<0 }
        let offset = Self.offset(keeping: min(selectedIndex, itemCount - 1), visible: scrollOffset, height: height, itemCount: itemCount)
        return offset..<min(itemCount, offset + height)
    }

    private static func offset(keeping selected: Int, visible offset: Int, height: Int, itemCount: Int) -> Int {
        var offset = min(offset, max(0, itemCount - height))
        if selected < offset { offset = selected }
        if selected >= offset + height { offset = selected - height + 1 }
        return max(0, offset)
    }

    /// Applies a mouse event to the list drawn in `area`: the wheel moves the selection by
    /// three rows, a click selects the row under the pointer. Returns whether it applied.
    public mutating func handle(_ event: MouseEvent, area: Rect, itemCount: Int) -> Bool {
        switch event {
        case .wheelUp:
            move(by: -3, itemCount: itemCount, pageSize: area.height)
        case .wheelDown:
            move(by: 3, itemCount: itemCount, pageSize: area.height)
        case .click(let x, let y), .doubleClick(let x, let y):
            guard area.contains(x: x, y: y) else { return false }
            let range = visibleRange(itemCount: itemCount, height: area.height)
            let index = range.lowerBound + (y - area.y)
            guard range.contains(index) else { return false }
            select(index, itemCount: itemCount, pageSize: area.height)
        }
        return true
    }
}
