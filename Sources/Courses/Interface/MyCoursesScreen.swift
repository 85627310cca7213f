import SharedKernel
import TerminalUI

/// Tab 2: the courses the learner is enrolled in, with progress and enrolment date.
@MainActor
final class MyCoursesScreen: Screen {
    static let emptyText = "You are not enrolled in any course yet — press 1 to browse the catalog"

    private let viewModel: MyCoursesViewModel
    private let onCourseSelected: @MainActor (CourseID) -> Void
    /// Where the rows were last drawn; written while drawing, so not observed.
    private var listArea = Rect(x: 0, y: 0, width: 0, height: 10)

    init(viewModel: MyCoursesViewModel, onCourseSelected: @escaping @MainActor (CourseID) -> Void) {
        self.viewModel = viewModel
        self.onCourseSelected = onCourseSelected
    }

    var helpKeys: [KeyHint] {
        HelpOverlay.listKeys + [
            KeyHint("Enter", "open the course"),
            KeyHint("u", "unenroll, after y"),
            KeyHint("r", "retry after an error"),
        ]
    }

    var keyHints: [KeyHint] {
        if viewModel.pendingUnenroll != nil { return [KeyHint("y", "yes"), KeyHint("n", "no")] }
        switch viewModel.state {
        case .loaded: return [KeyHint("↑↓", "move"), KeyHint("Enter", "open"), KeyHint("u", "unenroll")]
        case .error: return [KeyHint("r", "retry")]
        case .idle, .loading, .empty: return []
        }
    }

    var statusMessage: StatusMessage? {
        if let pending = viewModel.pendingUnenroll {
            return StatusMessage("Unenroll from \(pending.course.title)? (y/n)")
        }
        return viewModel.status
    }

    /// A pending question takes every key but Ctrl-C, so `q` or `1` cannot slip past it.
    var isCapturingText: Bool { viewModel.pendingUnenroll != nil }

    var isAnimating: Bool { viewModel.state.isLoading }

    func appear() {
        Task { await viewModel.rows.appear() }
    }

    func draw(in canvas: inout some Canvas, frame: Frame) {
        StateView.draw(viewModel.state, in: &canvas, area: frame.area, tick: frame.tick, empty: [Self.emptyText]) { canvas, courses in
            drawTable(courses, in: &canvas, area: frame.area)
        }
    }

    private func drawTable(_ courses: [EnrolledCourse], in canvas: inout some Canvas, area: Rect) {
        let content = area.insetBy(horizontal: 1)
        let columns = Columns(width: content.width)
        canvas.draw("My courses", x: content.x, y: content.y, style: .bold)
        canvas.draw("  \(courses.count) enrolled", x: content.x + 10, y: content.y, style: .dim)
        let position = "\(viewModel.list.selectedIndex + 1)/\(courses.count)"
        canvas.draw(position, x: content.x + content.width - position.displayWidth, y: content.y, style: .dim)
        columns.draw(["Title", "Progress", "Enrolled", "Status"], in: &canvas, x: content.x, y: content.y + 1, style: .dim)

        listArea = Rect(x: area.x, y: area.y + 2, width: area.width, height: area.height - 2)
        ListView.draw(in: &canvas, area: listArea, itemCount: courses.count, state: viewModel.list) { canvas, index, row, isSelected in
            let item = courses[index]
            let cells = [
                item.course.title,
                ProgressBar.text(percent: item.enrollment.progress, width: Columns.progressWidth),
                DateText.format(item.enrollment.enrolledAt),
                item.enrollment.status.displayName,
            ]
            columns.draw(cells, in: &canvas, x: content.x, y: row.y, style: isSelected ? .selection : .normal)
        }
    }

    func handle(_ event: InputEvent) -> EventResult {
        if viewModel.pendingUnenroll != nil {
            switch event {
            case .key(.character("y")), .key(.character("Y")):
                Task { await viewModel.confirmUnenroll() }
            case .key(.character("n")), .key(.character("N")), .key(.escape):
                viewModel.cancelUnenroll()
            default:
                break
            }
            return .handled
        }
        viewModel.clearStatus()
        switch event {
        case .key(.character("r")):
            guard case .error = viewModel.state else { return .ignored }
            Task { await viewModel.load() }
            return .handled
        case .key(.character("u")):
            guard viewModel.selected != nil else { return .ignored }
            viewModel.requestUnenroll()
            return .handled
        case .key(.enter):
            guard let selected = viewModel.selected else { return .ignored }
            onCourseSelected(selected.id)
            return .handled
        case .key(let key):
            return viewModel.moveSelection(key, pageSize: listArea.height) ? .handled : .ignored
        case .mouse(let mouse):
            return viewModel.applyMouse(mouse, listArea: listArea) ? .handled : .ignored
        case .resize:
            return .ignored
        }
    }


    /// Title takes what the fixed columns leave.
    struct Columns {
        static let progressWidth = 15
        static let dateWidth = 11
        static let statusWidth = 11
        static let gap = 2

        let title: Int

        init(width: Int) {
            title = max(10, width - 3 - Self.progressWidth - Self.dateWidth - Self.statusWidth - 3 * Self.gap)
        }

        func draw(_ cells: [String], in canvas: inout some Canvas, x: Int, y: Int, style: Style) {
            let widths = [title, Self.progressWidth, Self.dateWidth, Self.statusWidth]
            var column = x + 3
            for (text, width) in zip(cells, widths) {
                canvas.draw(text, x: column, y: y, width: width, style: style)
                column += width + Self.gap
            }
        }
    }
}
