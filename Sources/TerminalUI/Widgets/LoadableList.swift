import Observation

/// Why a list could not be loaded, in words for the person at the terminal.
public struct ListLoadError: Error, Hashable, Sendable {
    public var message: String

    public init(message: String) {
        self.message = message
    }
}

/// A list read from a data source, with the rules every list screen shares: its `ViewState`,
/// its selection, one load at a time, silent refreshes, and the selected item kept selected
/// across reloads (by id), including moves made while a refresh was in flight.
@Observable
@MainActor
public final class LoadableList<Item: Identifiable & Sendable> {
    public typealias Fetch = @MainActor () async -> Result<[Item], ListLoadError>

    public private(set) var state: ViewState<[Item]> = .idle
    public private(set) var selection = ListState()
    @ObservationIgnored private var isRefreshing = false
    /// Counts fetches; only the newest one's result is ever applied.
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private let fetchItems: Fetch

    public init(fetch: @escaping Fetch) {
        self.fetchItems = fetch
    }

    public var items: [Item] { state.value ?? [] }

    public var selected: Item? {
        let items = self.items
        return items.indices.contains(selection.selectedIndex) ? items[selection.selectedIndex] : nil
    }

    /// Loads with the loading state shown; ignored while a load is in flight.
    public func load() async {
        guard !state.isLoading else { return }
        let keep = selected?.id
        state = .loading
        await fetch(keeping: keep)
    }

    /// Loads again without showing the loading state, so a screen shown again is current
    /// without flashing; ignored while another load or refresh is in flight.
    public func refresh() async {
        guard !state.isLoading, !isRefreshing else { return }
        isRefreshing = true
        defer { isRefreshing = false }
        await fetch(keeping: nil)
    }

    /// For a screen becoming visible: the first time it loads (showing the loading state),
    /// afterwards it refreshes silently so the list is current.
    public func appear() async {
        switch state {
        case .idle: await load()
        case .loaded, .empty: await refresh()
        case .loading, .error: break
        }
    }

    /// Loads again because what to load changed (e.g. a search query): never waits for an
    /// earlier fetch, and an earlier fetch that finishes later is discarded, so results of an
    /// older query are never shown after a newer one.
    public func reload() async {
        await fetch(keeping: nil)
    }

    /// Applies a list key; returns whether it was one.
    public func handle(_ key: Key, pageSize: Int) -> Bool {
        selection.handle(key, itemCount: items.count, pageSize: pageSize)
    }

    /// Applies a wheel or click on the list drawn in `area`; returns whether it applied.
    public func handle(_ event: MouseEvent, area: Rect) -> Bool {
        ListView.handle(event, state: &selection, area: area, itemCount: items.count)
    }

    /// Reads the items and selects one again when it is still there: `keep`, or else what is
    /// selected when the result arrives.
    private func fetch(keeping keep: Item.ID?) async {
        generation += 1
        let mine = generation
        let result = await fetchItems()
        guard mine == generation else { return }  // a newer fetch superseded this one
        switch result {
        case .success(let items):
            let keep = keep ?? selected?.id
            state = items.isEmpty ? .empty : .loaded(items)
            let index = keep.flatMap { id in items.firstIndex { $0.id == id } } ?? selection.selectedIndex
            selection.reconcile(selecting: index, itemCount: items.count)
        case .failure(let error):
            state = .error(message: error.message)
        }
    }
}
