import SharedKernel

/// The keys every list shares, declared once for all of them.
public enum ListKeys {
    public static let move = KeyDeclaration(
        "↑↓", "move", help: "move (also k j)",
        actions: [KeyAction("list.up", .up, title: "Move up"), KeyAction("list.down", .down, title: "Move down")])
    /// Pages, half pages and the ends in one line of the help: the catalog's help keeps its
    /// marks and its filters on its first screen at 80×24.
    public static let page = KeyDeclaration(
        "PgUp PgDn", "page", help: "a page; Ctrl-U Ctrl-D half a page; Home End (g G) the ends", inFooter: false,
        actions: [
            KeyAction("list.page_up", .pageUp, title: "Page up"), KeyAction("list.page_down", .pageDown, title: "Page down"),
            KeyAction("list.half_page_up", .control("u"), title: "Half a page up"),
            KeyAction("list.half_page_down", .control("d"), title: "Half a page down"), KeyAction("list.first", .home, title: "First row"),
            KeyAction("list.last", .end, title: "Last row"),
        ])
    public static let mouse = KeyDeclaration("mouse", "", help: "wheel scrolls, click selects, double click opens", inFooter: false)

    public static let all = [move, page, mouse]

    /// Half of a page of `page` rows, at least one.
    static func halfPage(_ page: Int) -> Int { max(1, page / 2) }

    /// Whether `key` is one of the list keys.
    static func isListKey(_ key: Key) -> Bool {
        switch key {
        case .up, .down, .pageUp, .pageDown, .home, .end, .character("k"), .character("j"), .character("g"), .character("G"),
            .control("u"), .control("d"):
            true
        default:
            false
        }
    }
}

/// The selection of a list whose items can change under it (a save, a refresh): it follows
/// the selected item by id, and stays at the same place when that item leaves. Over a
/// `KeptList`, so finding it costs the same however long the list is.
public struct KeyedSelection<ID: Hashable & Sendable>: Hashable, Sendable {
    private var selectedID: ID?
    private var lastIndex = 0
    private var scrollOffset = 0

    public init() {}

    /// Where the selection is in `items` now.
    public func index<Item: Identifiable>(in items: KeptList<Item>) -> Int where Item.ID == ID {
        guard !items.isEmpty else { return 0 }
        if let selectedID, let found = items.position(of: selectedID) { return found }
        return min(lastIndex, items.count - 1)
    }

    /// The selection and scroll over `items`, for drawing.
    func listState<Item: Identifiable>(over items: KeptList<Item>) -> ListState where Item.ID == ID {
        ListState(selectedIndex: index(in: items), scrollOffset: scrollOffset)
    }

    public func selected<Item: Identifiable>(in items: KeptList<Item>) -> Item? where Item.ID == ID {
        items.isEmpty ? nil : items[index(in: items)]
    }

    /// Holds on to the row selected now by its id, when no key has chosen one yet (the first
    /// row, or the place of a row that left): a row that comes in above it later moves the
    /// highlight down with its course, never onto itself.
    public mutating func pin<Item: Identifiable>(in items: KeptList<Item>) where Item.ID == ID {
        guard needsPin(in: items) else { return }
        let index = min(lastIndex, items.count - 1)
        lastIndex = index
        selectedID = items[index].id
    }

    /// Whether `pin` would change anything: rows show and none of them is held.
    public func needsPin<Item: Identifiable>(in items: KeptList<Item>) -> Bool where Item.ID == ID {
        guard !items.isEmpty else { return false }
        guard let selectedID else { return true }
        return items.position(of: selectedID) == nil
    }

    /// Applies a list key; returns whether it was one.
    public mutating func handle<Item: Identifiable>(_ key: Key, items: KeptList<Item>, pageSize: Int) -> Bool where Item.ID == ID {
        var state = listState(over: items)
        guard state.handle(key, itemCount: items.count, pageSize: pageSize) else { return false }
        adopt(state, items: items)
        return true
    }

    /// Applies a wheel or click on the list drawn in `area`; returns whether it applied.
    public mutating func handle<Item: Identifiable>(_ event: MouseEvent, items: KeptList<Item>, area: Rect) -> Bool
    where Item.ID == ID {
        var state = listState(over: items)
        guard state.handle(event, area: area, itemCount: items.count) else { return false }
        adopt(state, items: items)
        return true
    }

    private mutating func adopt<Item: Identifiable>(_ state: ListState, items: KeptList<Item>) where Item.ID == ID {
        lastIndex = state.selectedIndex
        scrollOffset = state.scrollOffset
        selectedID = items.indices.contains(state.selectedIndex) ? items[state.selectedIndex].id : nil
    }
}
