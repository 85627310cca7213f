import Observation

/// A tab that lists what the learner keeps (their courses, their favourites) from a list their
/// saves change: the selected row, kept by id as rows come and go, and the list read again each
/// time the tab shows, the tab busy meanwhile so the keys typed next act on what it is now.
@Observable
@MainActor
public final class OwnList<Item: Identifiable & Sendable> where Item.ID: Sendable {
    public private(set) var selection = KeyedSelection<Item.ID>()
    /// True from the moment the tab shows until the list is read again: keys wait for it.
    private(set) var isReading = false
    @ObservationIgnored public let tasks = OwnedTasks()
    @ObservationIgnored private let items: @MainActor () -> KeptList<Item>
    @ObservationIgnored private let confirmed: @MainActor () -> ViewState<[Item]>
    @ObservationIgnored private let read: @MainActor () async -> Void

    /// - Parameters:
    ///   - items: the rows as shown (saves under way applied).
    ///   - confirmed: the list's state as the store confirmed it.
    ///   - read: reads the list (the first time) or reads it again.
    public init(
        items: @escaping @MainActor () -> KeptList<Item>,
        confirmed: @escaping @MainActor () -> ViewState<[Item]>,
        read: @escaping @MainActor () async -> Void
    ) {
        self.items = items
        self.confirmed = confirmed
        self.read = read
    }

    /// Holds the selection on a row of the list as it is now: the first time rows show, and
    /// when the selected row left (news from another terminal), the row that took its place,
    /// so a row coming back later does not take the highlight back. Written only when it
    /// changes, so reading it while a frame is drawn asks for no other frame.
    private func followRows(_ items: KeptList<Item>) {
        guard selection.needsPin(in: items) else { return }
        selection.pin(in: items)
    }

    public var list: ListState {
        let items = self.items()
        followRows(items)
        return selection.listState(over: items)
    }

    public var selected: Item? {
        let items = self.items()
        followRows(items)
        return selection.selected(in: items)
    }

    public func moveSelection(_ key: Key, pageSize: Int) -> Bool {
        selection.handle(key, items: items(), pageSize: pageSize)
    }

    public func applyMouse(_ event: MouseEvent, listArea: Rect) -> Bool {
        selection.handle(event, items: items(), area: listArea)
    }

    /// The tab showed (or `r`): the list is read, and the tab is busy at once, before the
    /// read starts, so the keys typed next wait for it.
    public func readAgain() {
        guard !isReading else { return }
        isReading = true
        let read = self.read
        tasks.run { [weak self] in
            await read()
            guard let self else { return }
            isReading = false
            selection.pin(in: items())
        }
    }

    /// Keys wait while the list is read (the first time, or again as the tab shows): it may
    /// have changed elsewhere.
    public var acceptsKeys: Bool {
        switch confirmed() {
        case .idle, .loading: false
        case .loaded, .empty, .error: !isReading
        }
    }

    public var isAnimating: Bool { confirmed().isLoading || isReading }

    public var isError: Bool {
        if case .error = confirmed() { return true }
        return false
    }

    /// What the tab draws: the rows as shown; an empty list being read again may not be
    /// empty, so it says nothing it does not know.
    public var shown: ViewState<[Item]> {
        switch confirmed() {
        case .loaded:
            let items = self.items()
            return items.isEmpty ? (isReading ? .loading : .empty) : .loaded(items.items)
        case .idle: return .idle
        case .loading: return .loading
        case .empty: return .empty
        case .error(let message): return .error(message: message)
        }
    }
}
