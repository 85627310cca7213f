import Observation
import SharedKernel
import TerminalUI

/// The catalog list: its load state and the selected row.
@Observable
@MainActor
final class CatalogListViewModel {
    private(set) var state: ViewState<[Course]> = .idle
    private(set) var list = ListState()

    private let loadCatalog: LoadCatalogUseCase

    init(loadCatalog: LoadCatalogUseCase) {
        self.loadCatalog = loadCatalog
    }

    var courses: [Course] { state.value ?? [] }

    var selectedCourse: Course? {
        let courses = self.courses
        return courses.indices.contains(list.selectedIndex) ? courses[list.selectedIndex] : nil
    }

    /// Loads the catalog; ignored while a load is in flight. Keeps the selected course
    /// selected when it is still there.
    func load() async {
        guard !state.isLoading else { return }
        let previouslySelected = selectedCourse?.id
        state = .loading
        do {
            let courses = try await loadCatalog.execute()
            state = courses.isEmpty ? .empty : .loaded(courses)
            let index = previouslySelected.flatMap { id in courses.firstIndex { $0.id == id } } ?? list.selectedIndex
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
        list.handle(key, itemCount: courses.count, pageSize: pageSize)
    }

    func applyMouse(_ event: MouseEvent, listArea: Rect) -> Bool {
        ListView.handle(event, state: &list, area: listArea, itemCount: courses.count)
    }
}
