import Observation
import SharedKernel
import TerminalUI

/// The catalog list: its load state and the selected row.
@Observable
@MainActor
final class CatalogListViewModel {
    private(set) var state: ViewState<[CatalogEntry]> = .idle
    private(set) var list = ListState()

    private let loadCatalog: LoadCatalogUseCase
    @ObservationIgnored private var isRefreshing = false

    init(loadCatalog: LoadCatalogUseCase) {
        self.loadCatalog = loadCatalog
    }

    var entries: [CatalogEntry] { state.value ?? [] }

    var selectedCourse: Course? {
        let entries = self.entries
        return entries.indices.contains(list.selectedIndex) ? entries[list.selectedIndex].course : nil
    }

    /// Loads the catalog with the loading state shown; ignored while a load is in flight.
    /// Keeps the selected course selected when it is still there.
    func load() async {
        guard !state.isLoading else { return }
        let keep = selectedCourse?.id
        state = .loading
        await fetch(keeping: keep)
    }

    /// Loads again without the loading state, e.g. when the list shows again after an
    /// enrollment, so markers and seats are current.
    func refresh() async {
        guard !state.isLoading, !isRefreshing else { return }
        isRefreshing = true
        defer { isRefreshing = false }
        await fetch(keeping: nil)
    }

    /// Reads the list and selects a course again when it is still there: `keep`, or else
    /// whatever is selected when the result arrives, so keys pressed during a silent refresh
    /// are not undone by it.
    private func fetch(keeping keep: CourseID?) async {
        do {
            let courses = try await loadCatalog.execute()
            let keep = keep ?? selectedCourse?.id
            state = courses.isEmpty ? .empty : .loaded(courses)
            let index = keep.flatMap { id in courses.firstIndex { $0.id == id } } ?? list.selectedIndex
            list.reconcile(selecting: index, itemCount: courses.count)
        } catch {
            state = .error(message: error.userMessage)
        }
    }

    /// Loads again after an error or on `r`.
    func retry() async {
        await load()
    }

    /// Applies a list key; returns whether it was one.
    func moveSelection(_ key: Key, pageSize: Int) -> Bool {
        list.handle(key, itemCount: entries.count, pageSize: pageSize)
    }

    func applyMouse(_ event: MouseEvent, listArea: Rect) -> Bool {
        ListView.handle(event, state: &list, area: listArea, itemCount: entries.count)
    }
}
