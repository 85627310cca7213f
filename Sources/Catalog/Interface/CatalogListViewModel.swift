import Foundation
import Observation
import SharedKernel
import TerminalUI

/// The search query as the list's fetch reads it.
@MainActor
final class SearchTerms {
    var query = ""
}

/// The catalog list: a window of its rows (load state and selection), read a page at a
/// time however large the catalog is.
@Observable
@MainActor
final class CatalogListViewModel {
    let rows: PagedList<CatalogKey, CatalogEntry>
    /// The outcome of the last action, for the footer.
    private(set) var status: StatusMessage?
    /// The search field; its text filters the list whether or not it is being edited.
    private(set) var searchField = TextField()
    private(set) var isEditingSearch = false
    private let toggleFavouriteAction: CatalogFeature.ToggleFavouriteAction
    /// The query each fetch reads when it starts (the list's fetch cannot see `self`).
    @ObservationIgnored private let terms: SearchTerms
    @ObservationIgnored private var actions = 0

    init(loadCatalog: LoadCatalogUseCase, toggleFavourite: @escaping CatalogFeature.ToggleFavouriteAction, pageSize: Int = 100) {
        self.toggleFavouriteAction = toggleFavourite
        let terms = SearchTerms()
        self.terms = terms
        rows = PagedList(
            pageSize: pageSize,
            fetchPage: { position, limit in
                do throws(AppError) {
                    let page = try await loadCatalog.page(query: terms.query, at: CatalogPosition(position), limit: limit)
                    return .success(page.map { PagedItem(key: $0.key, item: $0.entry) })
                } catch {
                    return .failure(ListLoadError(message: error.userMessage))
                }
            },
            fetchCount: {
                do throws(AppError) {
                    switch try await loadCatalog.count(query: terms.query) {
                    case .exactly(let count): return .success(.exactly(count))
                    case .atLeast(let count): return .success(.atLeast(count))
                    }
                } catch {
                    return .failure(ListLoadError(message: error.userMessage))
                }
            }
        )
    }

    var state: ViewState<[CatalogEntry]> { rows.state }
    var list: ListState { rows.selection }
    var entries: [CatalogEntry] { rows.items }
    var selectedCourse: Course? { rows.selected?.course }

    /// `N courses` (or `N matches` while searching), once counted.
    func countText(noun: String, plural: String) -> String? {
        switch rows.count {
        case .exactly(let count): "\(count) \(count == 1 ? noun : plural)"
        case .atLeast(let count): "\(count)+ \(plural)"
        case nil: nil
        }
    }

    /// `7/64`: the selected row's place in the whole list; `?` where it is not known.
    var positionText: String {
        let place = rows.position.map { "\($0 + 1)" } ?? "?"
        switch rows.count {
        case .exactly(let count): return "\(place)/\(count)"
        case .atLeast(let count): return "\(place)/\(count)+"
        case nil: return place
        }
    }

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
        actions += 1
        let mine = actions
        let result = await toggleFavouriteAction(course.id)
        // Refresh first, so the message and the new ★ appear in the same frame.
        await rows.refresh()
        // Toggles in a burst finish in any order; the footer speaks of the last one pressed.
        guard mine == actions else { return }
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
    /// caller reloads; the newest query always wins (see `PagedList.reload`).
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

extension CatalogPosition {
    init(_ position: PagePosition<CatalogKey>) {
        switch position {
        case .first: self = .first
        case .last: self = .last
        case .after(let key): self = .after(key)
        case .before(let key): self = .before(key)
        }
    }
}
