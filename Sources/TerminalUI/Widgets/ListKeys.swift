import SharedKernel

/// The keys every list shares, declared once for all of them.
public enum ListKeys {
    public static let move = KeyDeclaration(
        "↑↓", "move", help: "move (also k j)", actions: [KeyAction("list.up", .up), KeyAction("list.down", .down)])
    /// Pages, half pages and the ends in one line of the help: the catalog's help keeps its
    /// marks and its filters on its first screen at 80×24.
    public static let page = KeyDeclaration(
        "PgUp PgDn", "page", help: "a page; Ctrl-U Ctrl-D half a page; Home End (g G) the ends", inFooter: false,
        actions: [
            KeyAction("list.page_up", .pageUp), KeyAction("list.page_down", .pageDown), KeyAction("list.half_page_up", .control("u")),
            KeyAction("list.half_page_down", .control("d")), KeyAction("list.first", .home), KeyAction("list.last", .end),
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

/// The selection of a short list whose items can change under it (a save, a refresh): it
/// follows the selected item by id, and stays at the same place when that item leaves.
public struct KeyedSelection<ID: Hashable & Sendable>: Hashable, Sendable {
    private var selectedID: ID?
    private var lastIndex = 0
    private var scrollOffset = 0

    public init() {}

    /// Where the selection is in `ids` now.
    public func index(in ids: [ID]) -> Int {
        guard !ids.isEmpty else { return 0 }
        if let selectedID, let found = ids.firstIndex(of: selectedID) { return found }
        return min(lastIndex, ids.count - 1)
    }

    /// The selection and scroll over `ids`, for drawing.
    func listState(over ids: [ID]) -> ListState {
        ListState(selectedIndex: index(in: ids), scrollOffset: scrollOffset)
    }

    public func selected(in ids: [ID]) -> ID? {
        ids.isEmpty ? nil : ids[index(in: ids)]
    }

    /// Applies a list key; returns whether it was one.
    public mutating func handle(_ key: Key, ids: [ID], pageSize: Int) -> Bool {
        var state = listState(over: ids)
        guard state.handle(key, itemCount: ids.count, pageSize: pageSize) else { return false }
        adopt(state, ids: ids)
        return true
    }

    /// Applies a wheel or click on the list drawn in `area`; returns whether it applied.
    public mutating func handle(_ event: MouseEvent, ids: [ID], area: Rect) -> Bool {
        var state = listState(over: ids)
        guard ListView.handle(event, state: &state, area: area, itemCount: ids.count) else { return false }
        adopt(state, ids: ids)
        return true
    }

    private mutating func adopt(_ state: ListState, ids: [ID]) {
        lastIndex = state.selectedIndex
        scrollOffset = state.scrollOffset
        selectedID = ids.indices.contains(state.selectedIndex) ? ids[state.selectedIndex] : nil
    }
}
