import Foundation
import Observation
import SharedKernel
import TerminalUI

/// The search query as the list's fetch reads it.
@MainActor
final class SearchTerms {
    var query = ""
}

/// The catalog list: its rows (load state and selection).
@Observable
@MainActor
final class CatalogListViewModel {
    let rows: LoadableList<CatalogEntry>
    /// The outcome of the last action, for the footer.
    private(set) var status: StatusMessage?
    /// The search field; its text filters the list whether or not it is being edited.
    private(set) var searchField = TextField()
    private(set) var isEditingSearch = false
    private let toggleFavouriteAction: CatalogFeature.ToggleFavouriteAction
    /// The query each fetch reads when it starts (the list's fetch cannot see `self`).
    @ObservationIgnored private let terms: SearchTerms

    init(loadCatalog: LoadCatalogUseCase, toggleFavourite: @escaping CatalogFeature.ToggleFavouriteAction) {
        self.toggleFavouriteAction = toggleFavourite
        let terms = SearchTerms()
        self.terms = terms
        rows = LoadableList {
            do throws(AppError) {
                return .success(try await loadCatalog.execute(query: terms.query))
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

    /// The filter in force, trimmed; empty when the whole catalog shows.
    var query: String { searchField.text.trimmingCharacters(in: .whitespaces) }

    /// `/`: opens the search field, keeping any filter already typed.
    func beginSearch() {
        status = nil
        isEditingSearch = true
    }

    /// A key typed into the search field. Returns whether the query changed, in which case the
    /// caller reloads; the newest query always wins (see `LoadableList.reload`).
    func editSearch(_ key: Key) -> Bool {
        let before = searchField.text
        guard searchField.handle(key) else { return false }
        terms.query = searchField.text
        return searchField.text != before
    }

    /// `Enter`: keeps the filter and closes the field.
    func keepSearch() {
        isEditingSearch = false
    }

    /// `Esc`: clears the filter and closes the field. Returns whether there was one to clear.
    func clearSearch() -> Bool {
        let hadQuery = !searchField.text.isEmpty
        isEditingSearch = false
        searchField = TextField()
        terms.query = ""
        return hadQuery
    }

    func drawSearchField(in canvas: inout some Canvas, x: Int, y: Int, width: Int) {
        searchField.draw(in: &canvas, x: x, y: y, width: width, focused: isEditingSearch)
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
