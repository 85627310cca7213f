import SharedKernel
import TerminalUI

/// Tab 3: the learner's favourite courses.
@MainActor
final class FavouritesScreen: Screen {
    static let emptyText = ["No favourites yet", "Press f on a course in the catalog (tab 1) to keep it here"]

    private let viewModel: FavouritesViewModel
    private let onCourseSelected: @MainActor (CourseID) -> Void
    /// Where the rows were last drawn; written while drawing, so not observed.
    private var listArea = Rect(x: 0, y: 0, width: 0, height: 10)

    init(viewModel: FavouritesViewModel, onCourseSelected: @escaping @MainActor (CourseID) -> Void) {
        self.viewModel = viewModel
        self.onCourseSelected = onCourseSelected
    }

    var helpKeys: [KeyHint] {
        HelpOverlay.listKeys + [
            KeyHint("Enter", "open the course"),
            KeyHint("f", "remove from favourites"),
            KeyHint("r", "retry after an error"),
        ]
    }

    var keyHints: [KeyHint] {
        switch viewModel.rows.state {
        case .loaded: [KeyHint("↑↓", "move"), KeyHint("Enter", "open"), KeyHint("f", "remove")]
        case .error: [KeyHint("r", "retry")]
        case .idle, .loading, .empty: []
        }
    }

    var statusMessage: StatusMessage? { viewModel.status }
    var isAnimating: Bool { viewModel.rows.state.isLoading }

    func appear() {
        Task { await viewModel.rows.appear() }
    }

    func draw(in canvas: inout some Canvas, frame: Frame) {
        StateView.draw(viewModel.rows.state, in: &canvas, area: frame.area, tick: frame.tick, empty: Self.emptyText) { canvas, courses in
            drawTable(courses, in: &canvas, area: frame.area)
        }
    }

    private func drawTable(_ courses: [Course], in canvas: inout some Canvas, area: Rect) {
        let content = area.insetBy(horizontal: 1)
        canvas.draw("Favourites", x: content.x, y: content.y, style: .bold)
        canvas.draw("  \(courses.count) course\(courses.count == 1 ? "" : "s")", x: content.x + 10, y: content.y, style: .dim)
        let position = "\(viewModel.rows.selection.selectedIndex + 1)/\(courses.count)"
        canvas.draw(position, x: content.x + content.width - position.displayWidth, y: content.y, style: .dim)
        let instructorWidth = min(22, max(12, content.width / 4))
        let priceWidth = 10
        let titleWidth = max(10, content.width - 3 - instructorWidth - priceWidth - 4)
        func row(_ cells: (String, String, String), in canvas: inout some Canvas, y: Int, style: Style) {
            canvas.draw(cells.0, x: content.x + 3, y: y, width: titleWidth, style: style)
            canvas.draw(cells.1, x: content.x + 3 + titleWidth + 2, y: y, width: instructorWidth, style: style == .selection ? style : .dim)
            let price = TerminalText.truncate(cells.2, toWidth: priceWidth)
            canvas.draw(price, x: content.x + content.width - price.displayWidth, y: y, style: style)
        }
        row(("Title", "Instructor", "Price"), in: &canvas, y: content.y + 1, style: .dim)
        listArea = Rect(x: area.x, y: area.y + 2, width: area.width, height: area.height - 2)
        ListView.draw(in: &canvas, area: listArea, itemCount: courses.count, state: viewModel.rows.selection) { canvas, index, line, isSelected in
            let course = courses[index]
            canvas.draw("★", x: content.x, y: line.y, style: isSelected ? .selection : .accent)
            row((course.title, course.instructor, course.price.formatted), in: &canvas, y: line.y, style: isSelected ? .selection : .normal)
        }
    }

    func handle(_ event: InputEvent) -> EventResult {
        viewModel.clearStatus()
        switch event {
        case .key(.character("r")):
            guard case .error = viewModel.rows.state else { return .ignored }
            Task { await viewModel.rows.load() }
            return .handled
        case .key(.character("f")):
            // Capture the target now: keys after this one may move the selection first.
            guard let course = viewModel.rows.selected else { return .ignored }
            Task { await viewModel.remove(course) }
            return .handled
        case .key(.enter):
            guard let course = viewModel.rows.selected else { return .ignored }
            onCourseSelected(course.id)
            return .handled
        case .key(let key):
            return viewModel.rows.handle(key, pageSize: listArea.height) ? .handled : .ignored
        case .mouse(let mouse):
            return viewModel.rows.handle(mouse, area: listArea) ? .handled : .ignored
        case .resize:
            return .ignored
        }
    }
}
