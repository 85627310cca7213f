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

    var keyHints: [KeyHint] {
        switch viewModel.state {
        case .loaded: [KeyHint("↑↓", "move"), KeyHint("Enter", "open"), KeyHint("f", "favourite"), KeyHint("r", "reload")]
        case .error, .empty: [KeyHint("r", "retry")]
        case .idle, .loading: []
        }
    }

    var isAnimating: Bool { viewModel.state.isLoading }
    var statusMessage: StatusMessage? { viewModel.status }

    func appear() {
        switch viewModel.state {
        case .idle: Task { await viewModel.load() }
        case .loaded, .empty: Task { await viewModel.refresh() }
        case .loading, .error: break
        }
    }

    func draw(in canvas: inout some Canvas, frame: Frame) {
        StateView.draw(
            viewModel.state, in: &canvas, area: frame.area, tick: frame.tick,
            empty: ["The catalog has no courses yet", "Import some with: tui import-courses FILE"]
        ) { canvas, entries in
            drawTable(entries, in: &canvas, area: frame.area)
        }
    }

    private func drawTable(_ courses: [CatalogEntry], in canvas: inout some Canvas, area: Rect) {
        let content = area.insetBy(horizontal: 1)
        let columns = CatalogColumns(width: content.width)
        canvas.draw("Catalog", x: content.x, y: content.y, style: .bold)
        let count = "\(courses.count) course\(courses.count == 1 ? "" : "s")"
        let position = "\(viewModel.list.selectedIndex + 1)/\(courses.count)"
        canvas.draw("  \(count)", x: content.x + 7, y: content.y, style: .dim)
        canvas.draw(position, x: content.x + content.width - position.displayWidth, y: content.y, style: .dim)
        columns.draw(.headings, in: &canvas, x: content.x, y: content.y + 1, style: .dim)

        listArea = Rect(x: area.x, y: area.y + 2, width: area.width, height: area.height - 2)
        ListView.draw(in: &canvas, area: listArea, itemCount: courses.count, state: viewModel.list) { canvas, index, row, isSelected in
            let entry = courses[index]
            columns.draw(.init(entry: entry), in: &canvas, x: content.x, y: row.y, style: isSelected ? .selection : .normal)
        }
    }

    func handle(_ event: InputEvent) -> EventResult {
        viewModel.clearStatus()
        switch event {
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
}
