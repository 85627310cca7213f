import SharedKernel
import TerminalUI

/// The catalog tab's root: a table of courses sorted by title.
@MainActor
final class CatalogListScreen: Screen {
    private let viewModel: CatalogListViewModel
    private let onCourseSelected: @MainActor (CourseID) -> Void
    /// Where the rows were last drawn, for page size and mouse hits. Not observed: it is
    /// written while drawing.
    private var listArea = Rect(x: 0, y: 0, width: 0, height: 10)

    init(viewModel: CatalogListViewModel, onCourseSelected: @escaping @MainActor (CourseID) -> Void) {
        self.viewModel = viewModel
        self.onCourseSelected = onCourseSelected
    }

    var helpKeys: [KeyHint] {
        HelpOverlay.listKeys + [
            KeyHint("Enter", "open the course"),
            KeyHint("/", "search title, instructor, tags"),
            KeyHint("  Enter", "keep the filter"),
            KeyHint("  Esc", "clear the filter"),
            KeyHint("f", "toggle favourite ★"),
            KeyHint("r", "reload, or retry after an error"),
        ]
    }

    var keyHints: [KeyHint] {
        if viewModel.isEditingSearch {
            return [KeyHint("Enter", "keep filter"), KeyHint("Esc", "clear"), KeyHint("↑↓", "move")]
        }
        let clear = viewModel.query.isEmpty ? [] : [KeyHint("Esc", "clear filter")]
        switch viewModel.state {
        case .loaded:
            return [KeyHint("↑↓", "move"), KeyHint("Enter", "open"), KeyHint("/", "search"), KeyHint("f", "favourite")] + clear + [KeyHint("r", "reload")]
        case .empty: return [KeyHint("/", "search")] + clear
        case .error: return [KeyHint("r", "retry")]
        case .idle, .loading: return []
        }
    }

    /// While the search field is open every key but Ctrl-C goes to it.
    var isCapturingText: Bool { viewModel.isEditingSearch }

    var isAnimating: Bool { viewModel.state.isLoading }
    var statusMessage: StatusMessage? { viewModel.status }

    func appear() {
        Task { await viewModel.rows.appear() }
    }

    func draw(in canvas: inout some Canvas, frame: Frame) {
        let query = viewModel.query
        let empty = query.isEmpty
            ? ["The catalog has no courses yet", "Import some with: tui import-courses FILE"]
            : ["No courses match \"\(query)\"", "Press Esc to clear the search"]
        if viewModel.isEditingSearch || !query.isEmpty {
            drawSearchLine(in: &canvas, area: frame.area)
        }
        let below = viewModel.isEditingSearch || !query.isEmpty ? frame.area.droppingTop(1) : frame.area
        StateView.draw(viewModel.state, in: &canvas, area: below, tick: frame.tick, empty: empty) { canvas, entries in
            drawTable(entries, in: &canvas, area: frame.area)
        }
    }

    /// The search line: `/` and the field while editing; the kept filter otherwise.
    private func drawSearchLine(in canvas: inout some Canvas, area: Rect) {
        let content = area.insetBy(horizontal: 1)
        let y = area.y
        canvas.fill(Rect(x: area.x, y: y, width: area.width, height: 1), style: .normal)
        canvas.draw("/", x: content.x, y: y, style: .accent)
        let count = viewModel.countText(noun: "match", plural: "matches").map { " \($0)" } ?? ""
        let fieldWidth = max(1, content.width - 2 - count.displayWidth - 1)
        viewModel.drawSearchField(in: &canvas, x: content.x + 2, y: y, width: fieldWidth)
        canvas.draw(count, x: content.x + content.width - count.displayWidth, y: y, style: .dim)
    }

    private func drawTable(_ courses: [CatalogEntry], in canvas: inout some Canvas, area: Rect) {
        let filtering = viewModel.isEditingSearch || !viewModel.query.isEmpty
        let content = area.insetBy(horizontal: 1)
        let columns = CatalogColumns(width: content.width)
        if !filtering {
            canvas.draw("Catalog", x: content.x, y: content.y, style: .bold)
            if let count = viewModel.countText(noun: "course", plural: "courses") {
                canvas.draw("  \(count)", x: content.x + 7, y: content.y, style: .dim)
            }
            let position = viewModel.positionText
            canvas.draw(position, x: content.x + content.width - position.displayWidth, y: content.y, style: .dim)
        }
        columns.draw(.headings, in: &canvas, x: content.x, y: content.y + 1, style: .dim)

        listArea = Rect(x: area.x, y: area.y + 2, width: area.width, height: area.height - 2)
        ListView.draw(in: &canvas, area: listArea, itemCount: courses.count, state: viewModel.list) { canvas, index, row, isSelected in
            let entry = courses[index]
            columns.draw(.init(entry: entry), in: &canvas, x: content.x, y: row.y, style: isSelected ? .selection : .normal)
        }
    }

    func handle(_ event: InputEvent) -> EventResult {
        viewModel.clearStatus()
        if viewModel.isEditingSearch { return handleSearch(event) }
        switch event {
        case .key(.character("/")):
            guard viewModel.state.value != nil || viewModel.state == .empty else { return .ignored }
            viewModel.beginSearch()
            return .handled
        case .key(.escape):
            guard viewModel.clearSearch() else { return .ignored }
            Task { await viewModel.rows.reload() }
            return .handled
        case .key(.character("f")):
            // Capture the target now: keys after this one may move the selection first.
            guard let course = viewModel.selectedCourse else { return .ignored }
            Task { await viewModel.toggleFavourite(course) }
            return .handled
        case .key(.character("r")):
            Task { await viewModel.load() }
            return .handled
        case .key(.enter):
            guard let course = viewModel.selectedCourse else { return .ignored }
            onCourseSelected(course.id)
            return .handled
        case .key(let key):
            return viewModel.moveSelection(key, pageSize: listArea.height) ? .handled : .ignored
        case .mouse(let mouse):
            return viewModel.applyMouse(mouse, listArea: listArea) ? .handled : .ignored
        case .resize:
            return .ignored
        }
    }

    /// Keys while the search field is open: list moves still work, Enter keeps the filter,
    /// Esc clears it, everything else edits the query (and filters live).
    private func handleSearch(_ event: InputEvent) -> EventResult {
        switch event {
        case .key(.enter):
            viewModel.keepSearch()
        case .key(.escape):
            if viewModel.clearSearch() { Task { await viewModel.rows.reload() } }
        case .key(.up), .key(.down), .key(.pageUp), .key(.pageDown):
            if case .key(let key) = event { _ = viewModel.moveSelection(key, pageSize: listArea.height) }
        case .key(let key):
            if viewModel.editSearch(key) { Task { await viewModel.rows.reload() } }
        case .mouse(let mouse):
            _ = viewModel.applyMouse(mouse, listArea: listArea)
        case .resize:
            break
        }
        return .handled
    }
}
