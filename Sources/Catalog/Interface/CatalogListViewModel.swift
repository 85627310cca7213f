import Observation
import SharedKernel
import TerminalUI

/// The catalog list: its rows (load state and selection).
@Observable
@MainActor
final class CatalogListViewModel {
    let rows: LoadableList<CatalogEntry>
    /// The outcome of the last action, for the footer.
    private(set) var status: StatusMessage?
    private let toggleFavouriteAction: CatalogFeature.ToggleFavouriteAction

    init(loadCatalog: LoadCatalogUseCase, toggleFavourite: @escaping CatalogFeature.ToggleFavouriteAction) {
        self.toggleFavouriteAction = toggleFavourite
        rows = LoadableList {
            do throws(AppError) {
                return .success(try await loadCatalog.execute())
            } catch {
                return .failure(ListLoadError(message: error.userMessage))
            }
        }
    }

    var state: ViewState<[CatalogEntry]> { rows.state }
    var list: ListState { rows.selection }
    var entries: [CatalogEntry] { rows.items }
    var selectedCourse: Course? { rows.selected?.course }

    /// Loads the catalog with the loading state shown; ignored while a load is in flight.
    func load() async { await rows.load() }

    /// Loads again after an error or on `r`.
    func retry() async { await rows.load() }

    /// Loads again without the loading state, e.g. when the list shows again after an
    /// enrollment, so markers are current.
    func refresh() async { await rows.refresh() }

    /// `f`: marks or unmarks `course`, says so, and shows the new `★` at once. The screen
    /// passes the course selected when the key was pressed, not when this runs.
    func toggleFavourite(_ course: Course) async {
        let result = await toggleFavouriteAction(course.id)
        // Refresh first, so the message and the new ★ appear in the same frame.
        await rows.refresh()
        status = FavouriteStatus.message(for: result, title: course.title)
    }

    func clearStatus() {
        if status != nil { status = nil }
    }

    func moveSelection(_ key: Key, pageSize: Int) -> Bool {
        rows.handle(key, pageSize: pageSize)
    }

    func applyMouse(_ event: MouseEvent, listArea: Rect) -> Bool {
        rows.handle(event, area: listArea)
    }
}
