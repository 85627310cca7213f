import Observation
import SharedKernel

/// A list too long to hold: it keeps a window of a few pages around the selection and reads
/// the next page by key (keyset paging) before the selection gets to an edge, so memory and
/// the work per key stay the same however long the list is.
///
/// Loads are awaited by whoever asks; work nobody waits for (prefetching, a new query while
/// typing) runs in tasks the list owns, so `settle()` waits for all of it. Only the newest
/// window replacement is ever applied: a result that comes back after a newer request is
/// dropped, and a new query cancels the one it replaces.
@MainActor
public final class PagedList<ItemKey: Comparable & Sendable, Item: Identifiable & Sendable> {
    public typealias FetchPage = @MainActor (PagePosition<ItemKey>, Int) async -> Result<[PagedItem<ItemKey, Item>], ListLoadError>
    public typealias FetchCount = @MainActor () async -> Result<ListCount, ListLoadError>

    /// The loaded window: `value` holds its items.
    public internal(set) var state: ViewState<[Item]> {
        get {
            changes.read()
            return shown.state
        }
        set {
            changes.willChange()
            shown.state = newValue
            revision &+= 1
        }
    }
    /// Changes whenever `state` is set: what is worked out from the whole window (a table's
    /// column widths) is worked out again only when this changes, not on every frame.
    public internal(set) var revision = 0
    /// Selection and scroll, relative to the window.
    public internal(set) var selection: ListState {
        get {
            changes.read()
            return shown.selection
        }
        set {
            changes.willChange()
            shown.selection = newValue
        }
    }
    /// How many items the whole list has, once counted.
    public internal(set) var count: ListCount? {
        get {
            changes.read()
            return shown.count
        }
        set {
            changes.willChange()
            shown.count = newValue
        }
    }
    /// The whole list's index of the window's first item, when it is known.
    var windowStart: Int? {
        get {
            changes.read()
            return shown.windowStart
        }
        set {
            changes.willChange()
            shown.windowStart = newValue
        }
    }
    /// True while content on screen is being read again (a spinner shows beside it).
    public internal(set) var isRefreshing: Bool {
        get {
            changes.read()
            return shown.isRefreshing
        }
        set {
            changes.willChange()
            shown.isRefreshing = newValue
        }
    }
    /// True while what the list should show is not what it shows yet: the first load, a new
    /// query, a jump to an end. Keys that act on the rows wait for this to clear.
    public internal(set) var isUnsettled: Bool {
        get {
            changes.read()
            return shown.isUnsettled
        }
        set {
            changes.willChange()
            shown.isUnsettled = newValue
        }
    }

    /// What observers see, observed through one non-generic counter (`ObservedChanges`): the
    /// Observation macro's accessors in a generic class made a key path on every read, a
    /// sixth of a catalog frame's time. (No key paths here either, for the same reason.)
    private struct Observed {
        var state: ViewState<[Item]> = .idle
        var selection = ListState()
        var count: ListCount?
        var windowStart: Int?
        var isRefreshing = false
        var isUnsettled = false
    }

    private var shown = Observed()
    private let changes = ObservedChanges()

    /// Items read per fetch.
    public let pageSize: Int
    var keys: [ItemKey] = []
    var hasMoreBefore = false
    var hasMoreAfter = false
    var extending: [Bool: Task<Void, Never>] = [:]  // true: after
    private var refreshAgain = false
    /// A refresh asked for while one was in flight must count the list again.
    private var recountAgain = false
    /// Counts window replacements; a fetch started before the newest one is dropped.
    var generation = 0
    var viewportHeight = 20
    private var requeryTask: Task<Void, Never>?
    let tasks = OwnedTasks()
    let fetchPage: FetchPage
    let fetchCount: FetchCount

    public init(pageSize: Int = 100, fetchPage: @escaping FetchPage, fetchCount: @escaping FetchCount) {
        self.pageSize = max(1, pageSize)
        self.fetchPage = fetchPage
        self.fetchCount = fetchCount
    }

    var windowLimit: Int { pageSize * 3 }

    public var items: [Item] { state.value ?? [] }

    public var selected: Item? {
        let items = self.items
        return items.indices.contains(selection.selectedIndex) ? items[selection.selectedIndex] : nil
    }

    /// The selected item's index in the whole list, when known.
    public var position: Int? { windowStart.map { $0 + selection.selectedIndex } }

    /// True when keys can act on the rows: something is loaded and it is current.
    public var isSettled: Bool {
        guard !isUnsettled else { return false }
        switch state {
        case .idle, .loading: return false
        case .loaded, .empty, .error: return true
        }
    }

    // MARK: - Loading

    /// For a screen becoming visible (or the server answering again): loads the first time
    /// and after a failure, refreshes afterwards.
    public func appear() async {
        switch state {
        case .idle, .error: await load()
        case .loaded, .empty: await refresh()
        case .loading: break
        }
    }

    /// Loads with the loading state shown (the first page); ignored while a load is in flight.
    public func load() async {
        guard !state.isLoading else { return }
        state = .loading
        await replaceWindow(from: .first)
    }

    /// `r`: reads the list again. Content on screen stays, with a spinner, until the new one
    /// arrives; with nothing on screen (an error), it loads.
    public func reload() async {
        switch state {
        case .loaded, .empty: await refresh()
        case .idle, .error: await load()
        case .loading: break
        }
    }

    /// Reads the window again where it is, keeping on screen what is there and selected
    /// whatever is selected when the result arrives. Asked while one is in flight, it runs
    /// once more after it, so the last change made before asking is always shown.
    /// `recount: false`: what changed cannot change how many the list holds (a course's
    /// seats), so the count is not read again.
    public func refresh(recount: Bool = true) async {
        guard !state.isLoading else { return }
        guard !isRefreshing else {
            refreshAgain = true
            recountAgain = recountAgain || recount
            return
        }
        isRefreshing = true
        defer { isRefreshing = false }
        var recounting = recount
        repeat {
            refreshAgain = false
            let mine = generation
            let anchor = await anchorOfWindow()
            guard mine == generation else { return }
            await replaceWindow(
                from: anchor, keepingSelection: true, start: windowStart, size: max(pageSize, items.count), recount: recounting)
            recounting = recountAgain
            recountAgain = false
        } while refreshAgain
    }

    /// What to list changed (a search query): reads from the top in a task of the list's
    /// own, cancelling the read it replaces, so typing never waits for an obsolete query.
    /// The rows on screen stay until the new ones arrive; `isSettled` is false meanwhile.
    public func requery() {
        requeryTask?.cancel()
        isUnsettled = true
        // The count was the old query's: nothing is said about it until the new one's comes.
        count = nil
        // Claimed now, not when the task starts: a read of the old query that lands before
        // then is already stale.
        generation += 1
        let mine = generation
        let task = tasks.run { [weak self] in
            guard let self else { return }
            await self.replaceWindow(from: .first, claimed: mine)
        }
        requeryTask = task
    }

    /// The same items in another order (a sort): reads the rows around `anchor`, the selected
    /// item's key in the new order, so that item stays selected, on the screen row it was on
    /// where the rows allow. Without an anchor (or once the item is gone) it reads from the
    /// top, as `requery()` does.
    public func requery(around anchor: ItemKey?) {
        guard let anchor, let kept = selected?.id else { return requery() }
        requeryTask?.cancel()
        isUnsettled = true
        count = nil
        generation += 1
        let mine = generation
        let screenRow = selection.selectedIndex - selection.scrollOffset
        requeryTask = tasks.run { [weak self] in
            await self?.replaceWindow(around: anchor, keeping: kept, screenRow: screenRow, claimed: mine)
        }
    }

    /// The key the selected item has in the window.
    public var selectedKey: ItemKey? { keys.indices.contains(selection.selectedIndex) ? keys[selection.selectedIndex] : nil }

    /// Waits for everything the list is doing: loads, a new query, prefetching.
    public func settle() async {
        await tasks.settle()
    }

    /// Stops everything the list is doing (its screen left).
    public func cancel() {
        tasks.cancelAll()
        requeryTask = nil
        extending = [:]
        isUnsettled = false
    }

    /// Where to read the window again from: after the item just before it.
    private func anchorOfWindow() async -> PagePosition<ItemKey> {
        guard hasMoreBefore, let first = keys.first else { return .first }
        if case .success(let previous) = await fetchPage(.before(first), 1), let key = previous.last?.key {
            return .after(key)
        }
        return .first
    }

    // MARK: - Moving

    /// Applies a list key; returns whether it was one. `pageSize` is the rows on screen. A
    /// move to a part of the list that is not read yet (an end, the row past the window)
    /// returns once it is there, so the next key moves from where this one landed.
    public func handle(_ key: Key, pageSize viewport: Int) async -> Bool {
        viewportHeight = max(1, viewport)
        switch key {
        case .home where hasMoreBefore, .character("g") where hasMoreBefore:
            await jump(to: .first)
        case .end where hasMoreAfter, .character("G") where hasMoreAfter:
            await jump(to: .last)
        default:
            guard ListKeys.isListKey(key) else { return false }
            await waitForRowsPast(key)
            _ = selection.handle(key, itemCount: items.count, pageSize: viewportHeight)
            extendIfNeeded()
        }
        return true
    }

    /// A move that would stop at the window's edge while more is being read waits for it.
    private func waitForRowsPast(_ key: Key) async {
        let step: Int
        switch key {
        case .down, .character("j"): step = 1
        case .pageDown: step = viewportHeight
        case .control("d"): step = ListKeys.halfPage(viewportHeight)
        case .up, .character("k"): step = -1
        case .pageUp: step = -viewportHeight
        case .control("u"): step = -ListKeys.halfPage(viewportHeight)
        default: return
        }
        let target = selection.selectedIndex + step
        if target >= items.count, hasMoreAfter { await extend(after: true) }
        if target < 0, hasMoreBefore { await extend(after: false) }
    }

    /// Applies a wheel or click on the list drawn in `area`; returns whether it applied.
    public func handle(_ event: MouseEvent, area: Rect) -> Bool {
        viewportHeight = max(1, area.height)
        guard selection.handle(event, area: area, itemCount: items.count) else { return false }
        extendIfNeeded()
        return true
    }

    /// Reads the next page before the selection gets to the window's edge.
    func extendIfNeeded() {
        let margin = pageSize
        if hasMoreAfter, selection.selectedIndex >= items.count - margin, extending[true] == nil {
            tasks.run { [weak self] in await self?.extend(after: true) }
        }
        if hasMoreBefore, selection.selectedIndex < margin, extending[false] == nil {
            tasks.run { [weak self] in await self?.extend(after: false) }
        }
    }
}
