import Observation

/// An item of a paged list with the key that orders it.
public struct PagedItem<ItemKey: Comparable & Sendable, Item: Sendable>: Sendable {
    public let key: ItemKey
    public let item: Item

    public init(key: ItemKey, item: Item) {
        self.key = key
        self.item = item
    }
}

/// Where a page is read from: the ends, or right after or before a key.
public enum PagePosition<ItemKey: Comparable & Sendable>: Sendable {
    case first
    case last
    case after(ItemKey)
    case before(ItemKey)
}

/// How many items a list has; a lower bound when counting further would cost too much.
public enum ListCount: Hashable, Sendable {
    case exactly(Int)
    case atLeast(Int)
}

/// A list too long to hold: it keeps a window of a few pages around the selection and reads
/// the next page by key (keyset paging) as the selection nears an edge, so memory and the
/// work per key stay the same however long the list is. Shares `LoadableList`'s rules: one
/// load at a time, silent refreshes that keep the selected item, and only the newest fetch
/// applied.
@Observable
@MainActor
public final class PagedList<ItemKey: Comparable & Sendable, Item: Identifiable & Sendable> {
    public typealias FetchPage = @MainActor (PagePosition<ItemKey>, Int) async -> Result<[PagedItem<ItemKey, Item>], ListLoadError>
    public typealias FetchCount = @MainActor () async -> Result<ListCount, ListLoadError>

    /// The loaded window: `value` holds its items.
    public private(set) var state: ViewState<[Item]> = .idle
    /// Selection and scroll, relative to the window.
    public private(set) var selection = ListState()
    /// How many items the whole list has, once counted.
    public private(set) var count: ListCount?
    /// The whole list's index of the window's first item, when it is known.
    public private(set) var windowStart: Int?

    /// Items read per fetch.
    public let pageSize: Int
    @ObservationIgnored private var keys: [ItemKey] = []
    @ObservationIgnored private var hasMoreBefore = false
    @ObservationIgnored private var hasMoreAfter = false
    @ObservationIgnored private var extending: Set<Bool> = []  // true: after, false: before
    @ObservationIgnored private var isRefreshing = false
    @ObservationIgnored private var refreshAgain = false
    /// Counts window replacements; a fetch started before the newest one is dropped.
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var viewportHeight = 20
    /// List keys pressed while the list was loading, applied when it arrives.
    @ObservationIgnored private var pendingKeys: [Key] = []
    @ObservationIgnored private let fetchPage: FetchPage
    @ObservationIgnored private let fetchCount: FetchCount

    public init(pageSize: Int = 100, fetchPage: @escaping FetchPage, fetchCount: @escaping FetchCount) {
        self.pageSize = max(1, pageSize)
        self.fetchPage = fetchPage
        self.fetchCount = fetchCount
    }

    private var windowLimit: Int { pageSize * 3 }

    public var items: [Item] { state.value ?? [] }

    public var selected: Item? {
        let items = self.items
        return items.indices.contains(selection.selectedIndex) ? items[selection.selectedIndex] : nil
    }

    /// The selected item's index in the whole list, when known.
    public var position: Int? { windowStart.map { $0 + selection.selectedIndex } }

    // MARK: - Loading

    /// Loads with the loading state shown, where the window was (the first page the first
    /// time), keeping the selected item selected; ignored while a load is in flight.
    public func load() async {
        guard !state.isLoading else { return }
        let keep = selected?.id
        let (start, size) = (windowStart, max(pageSize, items.count))
        let mine = generation
        let anchor = await anchorOfWindow()
        guard mine == generation, !state.isLoading else { return }
        state = .loading
        await replaceWindow(from: anchor, keeping: keep, start: start, size: size)
    }

    /// Reads the window again where it is, silently, keeping selected whatever is selected
    /// when the result arrives. Asked while one is in flight, it runs once more after it, so
    /// the last change made before asking is always shown.
    public func refresh() async {
        guard !state.isLoading else { return }
        guard !isRefreshing else {
            refreshAgain = true
            return
        }
        isRefreshing = true
        defer { isRefreshing = false }
        repeat {
            refreshAgain = false
            let mine = generation
            let anchor = await anchorOfWindow()
            guard mine == generation else { return }
            await replaceWindow(from: anchor, keepingCurrent: true, start: windowStart, size: max(pageSize, items.count))
        } while refreshAgain
    }

    /// Where to read the window again from: after the item just before it.
    private func anchorOfWindow() async -> PagePosition<ItemKey> {
        guard hasMoreBefore, let first = keys.first else { return .first }
        if case .success(let previous) = await fetchPage(.before(first), 1), let key = previous.last?.key {
            return .after(key)
        }
        return .first
    }

    /// For a screen becoming visible: loads the first time, refreshes afterwards.
    public func appear() async {
        switch state {
        case .idle: await load()
        case .loaded, .empty: await refresh()
        case .loading, .error: break
        }
    }

    /// Loads from the top because what to list changed (a search query): never waits for an
    /// earlier fetch, and a fetch that finishes later is dropped.
    public func reload() async {
        await replaceWindow(from: .first)
    }

    // MARK: - Moving

    /// Applies a list key; returns whether it was one. `pageSize` is the rows on screen.
    public func handle(_ key: Key, pageSize viewport: Int) -> Bool {
        viewportHeight = max(1, viewport)
        if state.isLoading {
            // A `G` typed before the first page arrives still goes to the end.
            guard Self.isListKey(key) else { return false }
            pendingKeys.append(key)
            return true
        }
        switch key {
        case .home where hasMoreBefore, .character("g") where hasMoreBefore,
             .end where hasMoreAfter, .character("G") where hasMoreAfter:
            // The end is not in the window: read it (see `replay`).
            Task { await replay([key]) }
            return true
        default:
            guard selection.handle(key, itemCount: items.count, pageSize: viewportHeight) else { return false }
            extendIfNeeded()
            return true
        }
    }

    private static func isListKey(_ key: Key) -> Bool {
        switch key {
        case .up, .down, .pageUp, .pageDown, .home, .end, .character("k"), .character("j"), .character("g"), .character("G"):
            true
        default:
            false
        }
    }

    /// Applies a wheel or click on the list drawn in `area`; returns whether it applied.
    public func handle(_ event: MouseEvent, area: Rect) -> Bool {
        viewportHeight = max(1, area.height)
        guard ListView.handle(event, state: &selection, area: area, itemCount: items.count) else { return false }
        extendIfNeeded()
        return true
    }

    /// Reads the next page before the selection gets to the window's edge.
    private func extendIfNeeded() {
        let margin = pageSize
        if hasMoreAfter, selection.selectedIndex >= items.count - margin, !extending.contains(true) {
            Task { await extend(after: true) }
        }
        if hasMoreBefore, selection.selectedIndex < margin, !extending.contains(false) {
            Task { await extend(after: false) }
        }
    }

    // MARK: - Fetching

    private func jump(to position: PagePosition<ItemKey>) async {
        let toEnd: Bool
        if case .last = position { toEnd = true } else { toEnd = false }
        // The list is the same, so its count is too: only the window moves.
        await replaceWindow(from: position, selectLast: toEnd, recount: false)
    }

    /// Replaces the window with a page read from `position`.
    private func replaceWindow(
        from position: PagePosition<ItemKey>,
        keeping kept: Item.ID? = nil,
        keepingCurrent: Bool = false,
        start: Int? = nil,
        size: Int? = nil,
        selectLast: Bool = false,
        recount: Bool = true
    ) async {
        generation += 1
        let mine = generation
        extending = []
        let fetchCount = self.fetchCount
        async let counted = recount ? fetchCount() : nil
        let result = await fetchPage(position, size ?? pageSize)
        let total = await counted
        guard mine == generation else { return }
        if case .success(let count)? = total { self.count = count }
        let keep = kept ?? (keepingCurrent ? selected?.id : nil)
        switch result {
        case .failure(let error):
            state = .error(message: error.message)
        case .success(let page):
            let limit = size ?? pageSize
            let full = page.count >= limit
            keys = page.map(\.key)
            switch position {
            case .first:
                (hasMoreBefore, hasMoreAfter, windowStart) = (false, full, 0)
            case .last:
                hasMoreBefore = full
                hasMoreAfter = false
                if case .exactly(let count) = count { windowStart = count - page.count } else { windowStart = full ? nil : 0 }
            case .after:
                (hasMoreBefore, hasMoreAfter, windowStart) = (true, full, start)
            case .before:
                (hasMoreBefore, hasMoreAfter, windowStart) = (full, true, nil)
            }
            let previous = selection.selectedIndex
            state = page.isEmpty ? .empty : .loaded(page.map(\.item))
            let index: Int
            if selectLast {
                index = page.count - 1
            } else if let keep, let found = page.firstIndex(where: { $0.item.id == keep }) {
                index = found
            } else if keep != nil || keepingCurrent {
                index = previous
            } else {
                index = 0
            }
            if keep == nil && !keepingCurrent { selection = ListState() }
            selection.select(index, itemCount: page.count, pageSize: viewportHeight)
            extendIfNeeded()
        }
        let pending = pendingKeys
        pendingKeys = []
        if state.value != nil { await replay(pending) }
    }

    /// Applies keys in order, each jump finished before the next key moves from where it landed.
    private func replay(_ keys: [Key]) async {
        for key in keys {
            switch key {
            case .home where hasMoreBefore, .character("g") where hasMoreBefore:
                await jump(to: .first)
            case .end where hasMoreAfter, .character("G") where hasMoreAfter:
                await jump(to: .last)
            default:
                if selection.handle(key, itemCount: items.count, pageSize: viewportHeight) { extendIfNeeded() }
            }
        }
    }

    /// Adds the page after (or before) the window, and drops what is far from the selection.
    private func extend(after: Bool) async {
        guard let edge = after ? keys.last : keys.first else { return }
        let mine = generation
        extending.insert(after)
        let result = await fetchPage(after ? .after(edge) : .before(edge), pageSize)
        guard mine == generation else { return }
        extending.remove(after)
        guard case .success(let page) = result, var items = state.value else { return }
        let full = page.count >= pageSize
        if after {
            keys += page.map(\.key)
            items += page.map(\.item)
            hasMoreAfter = full
            let excess = items.count - windowLimit
            if excess > 0 {
                keys.removeFirst(excess)
                items.removeFirst(excess)
                selection.shift(by: -excess)
                windowStart = windowStart.map { $0 + excess }
                hasMoreBefore = true
            }
        } else {
            keys = page.map(\.key) + keys
            items = page.map(\.item) + items
            selection.shift(by: page.count)
            windowStart = windowStart.map { $0 - page.count }
            hasMoreBefore = full
            let excess = items.count - windowLimit
            if excess > 0 {
                keys.removeLast(excess)
                items.removeLast(excess)
                hasMoreAfter = true
            }
        }
        state = .loaded(items)
    }
}
