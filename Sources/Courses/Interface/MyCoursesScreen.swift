import SharedKernel
import TerminalUI

/// Tab 2: the courses the learner is enrolled in, with progress and status.
@MainActor
final class MyCoursesScreen: Screen {
    static let emptyText = "You are not enrolled in any course yet — press 1 to browse the catalog"

    enum Keys {
        static let open = KeyDeclaration("Enter", "open", help: "open the course")
        static let unenroll = KeyDeclaration("u", "unenroll", help: "unenroll, after y")
        static let reload = KeyDeclaration("r", "reload", help: "read the list again (retry after an error)")
        static let yes = KeyDeclaration("y", "yes", help: "answer yes to a question", inFooter: true)
        static let no = KeyDeclaration("n", "no", help: "answer no (also Esc)", inFooter: true)
    }

    nonisolated static let declaredKeys = ListKeys.all + [Keys.open, Keys.unenroll, Keys.reload, Keys.yes, Keys.no]

    private let viewModel: MyCoursesViewModel
    private let onCourseSelected: @MainActor (CourseID) -> Void
    /// Where the rows were last drawn; written while drawing, so not observed.
    private var listArea = Rect(x: 0, y: 0, width: 0, height: 10)

    init(viewModel: MyCoursesViewModel, onCourseSelected: @escaping @MainActor (CourseID) -> Void) {
        self.viewModel = viewModel
        self.onCourseSelected = onCourseSelected
    }

    var keys: [KeyDeclaration] { Self.declaredKeys }

    func isAvailable(_ key: KeyDeclaration) -> Bool {
        let asking = viewModel.pendingUnenroll != nil
        let hasRows = viewModel.selected != nil
        switch key {
        case Keys.yes, Keys.no: return asking
        case _ where asking: return false
        case ListKeys.move, Keys.open, Keys.unenroll: return hasRows
        case Keys.reload: return viewModel.model.state.value != nil || isError
        default: return hasRows
        }
    }

    private var isError: Bool {
        if case .error = viewModel.model.state { return true }
        return false
    }

    var statusMessage: StatusMessage? {
        if let course = viewModel.pendingUnenroll {
            return .question("Unenroll from ", course.title, "? (y/n)")
        }
        return nil
    }

    /// A pending question takes every key but Ctrl-C, so `q` or `1` cannot slip past it.
    var isCapturingText: Bool { viewModel.pendingUnenroll != nil }

    var isAnimating: Bool { viewModel.model.state.isLoading || viewModel.isReading }

    /// Keys wait for the first load: they act on the rows it brings.
    /// Keys wait while the list is read (the first time, or again when the tab shows): the
    /// list may have changed elsewhere, and they act on what it is now.
    func accepts(_ event: InputEvent) -> Bool {
        switch viewModel.model.state {
        case .idle, .loading: false
        case .loaded, .empty, .error: !viewModel.isReading
        }
    }

    func appear() {
        viewModel.readAgain()
    }

    func disappear() {
        viewModel.tasks.cancelAll()
    }

    func settle() async {
        await viewModel.tasks.settle()
    }

    func draw(in canvas: inout some Canvas, frame: Frame) {
        let state: ViewState<[EnrolledCourse]> = switch viewModel.model.state {
        // An empty list being read again may not be empty: it says nothing it does not know.
        case .loaded: viewModel.courses.isEmpty ? (viewModel.isReading ? .loading : .empty) : .loaded(viewModel.courses)
        case .idle: .idle
        case .loading: .loading
        case .empty: .empty
        case .error(let message): .error(message: message)
        }
        StateView.draw(state, in: &canvas, area: frame.area, tick: frame.tick, empty: [Self.emptyText]) { canvas, courses in
            drawTable(courses, in: &canvas, area: frame.area, tick: frame.tick)
        }
    }

    private func drawTable(_ courses: [EnrolledCourse], in canvas: inout some Canvas, area: Rect, tick: Int) {
        let content = area.insetBy(horizontal: 1)
        let columns = Columns(width: content.width)
        let list = viewModel.list
        var x = content.x + canvas.draw("My courses", x: content.x, y: content.y, style: .bold)
        x += canvas.draw("  \(courses.count) enrolled", x: x, y: content.y, style: .dim)
        if viewModel.model.isRefreshing {
            canvas.draw(" \(Spinner.frame(tick: tick))", x: x, y: content.y, style: .dim)
        }
        let position = "\(list.selectedIndex + 1)/\(courses.count)"
        canvas.draw(position, x: content.x + content.width - position.displayWidth, y: content.y, style: .dim)
        columns.draw(["Title", "Progress", "Enrolled", "Status"], in: &canvas, x: content.x, y: content.y + 1, style: .dim)

        listArea = Rect(x: area.x, y: area.y + 2, width: area.width, height: area.height - 2)
        ListView.draw(in: &canvas, area: listArea, itemCount: courses.count, state: list) { canvas, index, row, isSelected in
            let item = courses[index]
            let saving = viewModel.model.isSaving(item.id)
            let status: String = switch item.progress {
            case .completed(let date): "Completed \(DateText.format(date))"
            case let other: other.displayName
            }
            let cells = [
                item.course.title,
                ProgressBar.text(percent: item.percent, width: Columns.progressWidth),
                DateText.format(item.enrollment.enrolledAt),
                saving ? "Saving…" : status,
            ]
            columns.draw(cells, in: &canvas, x: content.x, y: row.y, style: isSelected ? .selection : (saving ? .dim : .normal))
        }
    }

    func handle(_ event: InputEvent) async -> EventResult {
        if viewModel.pendingUnenroll != nil {
            switch event {
            case .key(.character("y")), .key(.character("Y")):
                viewModel.confirmUnenroll()
            case .key(.character("n")), .key(.character("N")), .key(.escape):
                viewModel.cancelUnenroll()
            default:
                break
            }
            return .handled
        }
        switch event {
        case .key(.character("r")):
            guard isAvailable(Keys.reload) else { return .ignored }
            viewModel.readAgain()
            return .handled
        case .key(.character("u")):
            guard isAvailable(Keys.unenroll) else { return .ignored }
            viewModel.requestUnenroll()
            return .handled
        case .key(.enter):
            guard let selected = viewModel.selected else { return .ignored }
            onCourseSelected(selected.id)
            return .handled
        case .key(let key):
            return viewModel.moveSelection(key, pageSize: listArea.height) ? .handled : .ignored
        case .mouse(.doubleClick(let x, let y)):
            guard viewModel.applyMouse(.click(x: x, y: y), listArea: listArea), let selected = viewModel.selected else { return .ignored }
            onCourseSelected(selected.id)
            return .handled
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
        static let statusWidth = 22
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
