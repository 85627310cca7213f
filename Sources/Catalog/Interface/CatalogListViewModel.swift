import Foundation
import Observation
import Presentation
import SharedKernel

/// The search query as the list's fetch reads it (the fetch cannot hold the view-model).
@MainActor
final class SearchTerms {
    var query = CatalogQuery.parse("")
    /// The last page read came from the courses saved on the terminal (offline).
    var fromSaved = false
    /// Reads the list from the top: a page of the other source came, whose places do not
    /// compare with those of the rows around it.
    var restart: @MainActor () -> Void = {}
}

/// The catalog list: a window of its rows read a page at a time however large the catalog
/// is, the search field that filters it, and the outcome of the last action. The learner's
/// marks are not part of the rows: they are read from their owners as the rows are drawn, so
/// a ★ or a ✓ shows the moment it changes, without reading the catalog again.
@Observable
@MainActor
final class CatalogListViewModel {
    let rows: PagedList<CatalogPlace, Course>
    let learner: CatalogLearner
    /// The search field; its text filters the list whether or not it is being edited.
    private(set) var searchField = TextField()
    private(set) var isEditingSearch = false
    /// What the search field says, as the catalog reads it.
    private(set) var parsed = CatalogQuery.parse("")
    /// The order the list is read in (`s`, `S`); a search keeps it.
    private(set) var sort = CatalogSort.title
    /// The last key changed the order: a screen reader is taken to the title line that names
    /// it (`--accessible`), until the next key.
    private(set) var orderJustChanged = false
    @ObservationIgnored let tasks = OwnedTasks()
    /// The query each fetch reads when it starts.
    @ObservationIgnored private let terms: SearchTerms
    /// How many saved courses the rows come from while the server cannot be reached.
    @ObservationIgnored private let savedSearch: @MainActor () -> Int?

    init(
        courses: any CourseRepository, learner: CatalogLearner, changes: Notices<CatalogChange> = Notices(),
        pageSize: Int = CatalogFeature.pageSize,
        savedSearch: @escaping @MainActor () -> Int? = { nil }
    ) {
        self.learner = learner
        self.savedSearch = savedSearch
        let terms = SearchTerms()
        self.terms = terms
        rows = PagedList(
            pageSize: pageSize,
            fetchPage: { position, limit in
                do throws(AppError) {
                    let page = try await courses.page(terms.query, for: learner.id, at: CatalogPosition(position), limit: limit)
                    // The server gone or back between two pages: the window is read again
                    // from the top, where both sources agree on what comes first.
                    let fromSaved = savedSearch() != nil
                    if fromSaved != terms.fromSaved {
                        terms.fromSaved = fromSaved
                        if case .first = position {} else { terms.restart() }
                    }
                    // The marks drawn beside the rows are known before the rows show.
                    await learner.prepare(page.map(\.course))
                    return .success(page.map { PagedItem(key: CatalogPlace(key: $0.key, added: $0.added), item: $0.course) })
                } catch {
                    return .failure(ListLoadError(message: error.userMessage))
                }
            },
            fetchCount: {
                do throws(AppError) {
                    switch try await courses.count(terms.query, for: learner.id) {
                    case .exactly(let count): return .success(.exactly(count))
                    case .atLeast(let count): return .success(.atLeast(count))
                    }
                } catch {
                    return .failure(ListLoadError(message: error.userMessage))
                }
            }
        )
        changes.listen(self) { [weak self] change in self?.storeChanged(change) }
        terms.restart = { [weak self] in self?.rows.requery() }
    }

    /// The store changed a course on screen (its seats), the learner's marks, or maybe
    /// anything: the window is read again where it is, selection and search untouched, when
    /// what it lists may differ; once for the whole notice. A query that asks about seats
    /// (`is:open`) may gain or lose a course wherever it is; one about the learner's own, when
    /// their marks change. Seats alone leave the count as it is: it is not read again.
    private func storeChanged(_ change: CatalogChange) {
        let query = terms.query
        let membership = change.everything || (change.marks && query.dependsOnLearner) || (!change.courses.isEmpty && query.isOpen)
        let seats = !change.courses.isEmpty && rows.items.contains { change.courses.contains($0.id) }
        guard membership || seats else { return }
        let rows = self.rows
        tasks.run { await rows.refresh(recount: membership) }
    }

    /// Another key than `s`/`S`: what it changes is where a screen reader goes next.
    func keyPressed() {
        if orderJustChanged { orderJustChanged = false }
    }

    /// `r`: the catalog and the learner's marks, both as the store has them now.
    func reload() {
        let (rows, learner) = (self.rows, self.learner)
        tasks.run {
            async let list: Void = rows.reload()
            async let marks: Void = learner.readAgain(nil)
            _ = await (list, marks)
        }
    }

    var state: ViewState<[Course]> { rows.state }
    var list: ListState { rows.selection }
    var selectedCourse: Course? { rows.selected }

    /// `N courses` (or `N matches` while searching), once counted.
    /// `12 courses`, `10000+ courses`; while searching, `2 matches`. Offline, what the saved
    /// courses give: `Offline — searching 412 saved courses`, `2 of 412 saved`.
    func countText(matches: Bool) -> LocalizedText? {
        if let saved = savedSearch() {
            guard matches else { return "Offline — searching \(saved) saved courses" }
            guard case .exactly(let count) = rows.count else { return nil }
            return "\(count) of \(saved) saved"
        }
        return switch (rows.count, matches) {
        case (.exactly(let count), false): "\(count) courses"
        case (.exactly(let count), true): "\(count) matches"
        case (.atLeast(let count), false): "\(count)+ courses"
        case (.atLeast(let count), true): "\(count)+ matches"
        case (nil, _): nil
        }
    }

    /// `7/64`: the selected row's place in the whole list; `?` where it is not known.
    var positionText: LocalizedText {
        let place: LocalizedText = rows.position.map { "\($0 + 1)" } ?? "?"
        switch rows.count {
        case .exactly(let count): return "\(place)/\(count)"
        case .atLeast(let count): return "\(place)/\(count)+"
        case nil: return place
        }
    }

    /// The filter in force, trimmed; empty when the whole catalog shows.
    var query: String { searchField.text.trimmingCharacters(in: .whitespaces) }

    /// A filter is kept (the field is closed but its text still narrows the list).
    var hasKeptFilter: Bool { !isEditingSearch && !query.isEmpty }

    /// `f`: the ★ flips at once; the outcome is reported once it is saved.
    func toggleFavourite(_ course: Course) {
        let save = learner.toggleFavourite(course)
        tasks.run { await save.value }
    }

    /// `/`: opens the search field; a kept filter opens selected, so typing replaces it.
    func beginSearch() {
        searchField = TextField(text: searchField.text, selected: true)
        isEditingSearch = true
    }

    /// A key typed into the search field. When the query changes, the list reads the new
    /// query's first page, cancelling the read of the query before: typing never waits.
    func editSearch(_ key: Key) {
        let before = searchField.text
        guard searchField.handle(key), searchField.text != before else { return }
        var query = CatalogQuery.parse(searchField.text)
        query.sort = sort
        let changed = !query.asksTheSame(as: terms.query)
        terms.query = query
        parsed = query
        // Typing a space, or the rest of a filter's name, reads nothing again.
        if changed { rows.requery() }
    }

    /// `Enter` in the field: keeps the filter and closes the field.
    func keepSearch() {
        isEditingSearch = false
        if query.isEmpty { clearSearch() }
    }

    /// `Esc` in the field, or `Esc`/`q` with a kept filter: clears it and shows the whole
    /// catalog again.
    func clearSearch() {
        isEditingSearch = false
        let hadText = !searchField.text.isEmpty
        searchField = TextField()
        terms.query = CatalogQuery.parse("")
        terms.query.sort = sort
        parsed = terms.query
        // The whole catalog holds the course selected in the filter: it stays selected.
        if hadText { rows.requery(around: selectedPlace(in: sort)) }
    }

    /// `s` (the next order) and `S` (this order reversed): the list is read again in the new
    /// order around the selected course, which stays selected; the search kept.
    func order(by sort: CatalogSort) {
        guard sort != self.sort else { return }
        self.sort = sort
        orderJustChanged = true
        terms.query.sort = sort
        parsed.sort = sort
        rows.requery(around: selectedPlace(in: sort))
    }

    /// The selected course's place in `sort`'s order, when it can be known.
    private func selectedPlace(in sort: CatalogSort) -> CatalogPlace? {
        guard let place = rows.selectedKey, let course = rows.selected else { return nil }
        return CatalogRow(key: place.key, course: course, added: place.added).key(in: sort).map {
            CatalogPlace(key: $0, added: place.added)
        }
    }

}

/// A row's place in the list: its key in the order shown, and when its course was added,
/// which finds it in another order (`CatalogRow.key(in:)`). Compared by key alone.
struct CatalogPlace: Comparable, Sendable {
    let key: CatalogKey
    let added: Int64?

    static func < (lhs: CatalogPlace, rhs: CatalogPlace) -> Bool { lhs.key < rhs.key }
    static func == (lhs: CatalogPlace, rhs: CatalogPlace) -> Bool { lhs.key == rhs.key }
}

extension CatalogPosition {
    init(_ position: PagePosition<CatalogPlace>) {
        switch position {
        case .first: self = .first
        case .last: self = .last
        case .after(let place): self = .after(place.key)
        case .before(let place): self = .before(place.key)
        }
    }
}
