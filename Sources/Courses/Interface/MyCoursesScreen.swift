import Presentation
import SharedKernel
import TerminalUI

/// Tab 2: the courses the learner is enrolled in, with progress and status, then the ones
/// they left after completing them (dim, `Completed <date> · not enrolled`).
@MainActor
final class MyCoursesScreen: Screen {
    static let emptyText: LocalizedText = "You are not enrolled in any course yet — press 1 to browse the catalog"

    enum Keys {
        static let open = KeyDeclaration("Enter", "open", help: "open the course", action: "courses.open")
        static let resume = KeyDeclaration(
            "Enter", "continue", help: "a course under way: read its first lesson not done", action: "courses.continue")
        static let page = KeyDeclaration("o", "course page", help: "open the course's page", action: "courses.page")
        static let unenroll = KeyDeclaration("u", "unenroll", help: "unenroll, after y (your progress is kept)", action: "courses.unenroll")
        static let reload = KeyDeclaration("r", "reload", help: "read the list again (retry after an error)", action: "courses.reload")
    }

    nonisolated static let declaredKeys =
        ListKeys.all + [Keys.resume, Keys.open, Keys.page, Keys.unenroll, Keys.reload, YesNoQuestion.yes, YesNoQuestion.no]

    private let viewModel: MyCoursesViewModel
    private let onCourseSelected: @MainActor (CourseID) -> Void
    private let onOpenLesson: @MainActor (CourseID, Int) -> Void
    /// Where the rows were last drawn; written while drawing, so not observed.
    private var listArea = Rect(x: 0, y: 0, width: 0, height: 10)
    /// The column widths and the build of the rows they were measured on: measured when the
    /// rows change (a save under way among them), not on every frame.
    private var measured: (list: ObjectIdentifier, language: Language, widths: [Int])?

    init(
        viewModel: MyCoursesViewModel, onCourseSelected: @escaping @MainActor (CourseID) -> Void,
        onOpenLesson: @escaping @MainActor (CourseID, Int) -> Void = { _, _ in }
    ) {
        self.onOpenLesson = onOpenLesson
        self.viewModel = viewModel
        self.onCourseSelected = onCourseSelected
    }

    var keys: [KeyDeclaration] { Self.declaredKeys }

    static let noSelection = KeyAvailability.unavailable(reason: "No course selected")

    /// The lesson `Enter` continues with: the first not done of a course the learner holds a
    /// place in and has not completed; `nil` for the others, which `Enter` opens.
    static func nextLesson(_ course: EnrolledCourse) -> Int? {
        let enrollment = course.enrollment
        guard enrollment.holdsPlace, enrollment.status != .completed else { return nil }
        return (1...max(1, course.course.lessonCount)).first { !enrollment.lessonsDone.contains($0) }
    }

    func availability(of key: KeyDeclaration) -> KeyAvailability {
        let asking = viewModel.pendingUnenroll != nil
        let selected = viewModel.rows.selected
        switch key {
        case YesNoQuestion.yes, YesNoQuestion.no: return asking ? .available : .dormant
        case _ where asking: return .dormant
        case Keys.resume: return selected.flatMap(Self.nextLesson) == nil ? .dormant : .available
        case Keys.open: return selected == nil ? Self.noSelection : (selected.flatMap(Self.nextLesson) == nil ? .available : .dormant)
        case Keys.page: return selected == nil ? Self.noSelection : .available
        case Keys.unenroll:
            guard let selected else { return Self.noSelection }
            return viewModel.isSelectedEnrolled ? .available : .unavailable(reason: "You are not enrolled in \(selected.course.title)")
        case Keys.reload:
            return viewModel.model.state.value != nil || isError ? .available : .unavailable(reason: "Your courses are being read")
        default: return selected == nil ? .dormant : .available
        }
    }

    private var isError: Bool { viewModel.rows.isError }

    var statusMessage: StatusMessage? { viewModel.unenrollQuestion }

    /// A pending question takes every key but Ctrl-C, so `q` or `1` cannot slip past it.
    var isCapturingText: Bool { viewModel.pendingUnenroll != nil }

    var isAnimating: Bool { viewModel.rows.isAnimating }

    /// Keys wait while the list is read (the first time, or again when the tab shows): the
    /// list may have changed elsewhere, and they act on what it is now.
    func accepts(_ event: InputEvent) -> Bool {
        viewModel.rows.acceptsKeys
    }

    func appear() {
        viewModel.rows.readAgain()
    }

    func disappear() {
        viewModel.rows.tasks.cancelAll()
    }

    func settle() async {
        await viewModel.rows.tasks.settle()
    }

    func draw(in canvas: inout some Canvas, frame: Frame) {
        let texts = frame.texts
        StateView.draw(viewModel.rows.shown, in: &canvas, area: frame.area, tick: frame.tick, texts: texts, empty: [Self.emptyText]) {
            canvas, courses in
            drawTable(courses, in: &canvas, area: frame.area, tick: frame.tick, texts: texts)
        }
    }

    private func drawTable(_ courses: [EnrolledCourse], in canvas: inout some Canvas, area: Rect, tick: Int, texts: Texts) {
        let content = area.insetBy(horizontal: 1)
        let list = viewModel.rows.list
        var x = content.x + canvas.draw(texts("My courses"), x: content.x, y: content.y, style: .bold)
        // The count is of the places held; the courses left after completing them follow.
        let left = courses.count - viewModel.courses.count
        x += canvas.draw(
            "  " + texts("\(viewModel.courses.count) enrolled")
                + (left > 0 ? " · " + texts(("\(left) left" as LocalizedText).context("courses")) : ""), x: x, y: content.y,
            style: .dim)
        if viewModel.model.isRefreshing {
            canvas.draw(" \(Spinner.frame(tick: tick))", x: x, y: content.y, style: .dim)
        }
        let position = "\(list.selectedIndex + 1)/\(courses.count)"
        canvas.draw(position, x: content.x + content.width - position.displayWidth, y: content.y, style: .dim)

        let table = Self.table(widths: contentWidths(of: courses, texts: texts), width: content.width, texts: texts)
        table.drawHeadings(in: &canvas, x: content.x, y: content.y + 1)
        listArea = Rect(x: area.x, y: area.y + 2, width: area.width, height: area.height - 2)
        ListView.draw(in: &canvas, area: listArea, itemCount: courses.count, state: list) { canvas, index, line, isSelected in
            let row = Row(item: courses[index], isSaving: viewModel.model.isSaving(courses[index].id))
            let cells = Column.allCases.map { row.text($0, width: table.width(of: $0.rawValue), texts: texts) }
            // Saving, or history (left after completing it): dim.
            let style: Style = isSelected ? .selection : (row.isSaving || !row.item.enrollment.holdsPlace ? .dim : .normal)
            var styles = [Style?](repeating: nil, count: cells.count)
            if !isSelected { styles[Column.enrolled.rawValue] = .dim }
            table.draw(cells, styles: styles, in: &canvas, x: content.x, y: line.y, style: style)
        }
    }

    enum Column: Int, CaseIterable {
        case gutter, title, progress, status, enrolled
    }

    /// The title keeps its room; the enrollment date goes first, then the status drops its
    /// date, then the progress bar leaves only its percentage.
    static let columns: [TableColumn] = Column.allCases.map { column in
        switch column {
        case .gutter: .marks
        case .title: .title
        case .progress: TableColumn("Progress", compactHeading: "Done", width: .choices([15, 5]), givesWay: 3)
        case .status: TableColumn("Status", width: .flexible(min: 12, max: 36), givesWay: 2)
        case .enrolled: TableColumn("Enrolled", width: .flexible(min: 8, max: 11), givesWay: 1, droppable: true)
        }
    }

    private func contentWidths(of courses: [EnrolledCourse], texts: Texts) -> [Int] {
        let list = viewModel.model.rows.identity
        if let measured, measured.list == list, measured.language == texts.language { return measured.widths }
        let measuring = [Column.title, .status, .enrolled].map(\.rawValue)
        let rows = courses.lazy.map { Row(item: $0, isSaving: self.viewModel.model.isSaving($0.id)) }
        let widths = Table.contentWidths(of: rows, columns: Self.columns.map { $0.translated(texts) }, measuring: measuring) {
            row, column in row.text(Column(rawValue: column) ?? .title, width: .max, texts: texts)
        }
        measured = (list, texts.language, widths)
        return widths
    }

    static func table(widths: [Int], width: Int, texts: Texts) -> Table {
        Table(columns.map { $0.translated(texts) }, contentWidths: widths, width: width, primary: Column.title.rawValue, primaryTarget: 48)
    }

    struct Row {
        let item: EnrolledCourse
        let isSaving: Bool

        /// The cell of `column` when it is `width` wide.
        func text(_ column: Column, width: Int, texts: Texts) -> String {
            switch column {
            case .gutter: ""
            case .title: item.course.title
            case .progress: ProgressBar.text(percent: item.percent, width: width, language: texts.language)
            case .status:
                if isSaving {
                    texts("Saving…")
                } else {
                    switch item.progress {
                    // `Completed 22 Nov 2026` where it fits, else `Completed`.
                    case .completed(let date): Self.longest([texts("Completed \(day: date)"), texts("Completed")], in: width)
                    case .left(let date):
                        Self.longest(
                            [texts("Completed \(day: date) · not enrolled"), texts("Completed · not enrolled"), texts("Not enrolled")],
                            in: width)
                    case .notStarted, .inProgress: texts(item.progress.displayName)
                    }
                }
            case .enrolled: texts.day(item.enrollment.enrolledAt)
            }
        }

        /// The first of `texts` that fits, else the last.
        private static func longest(_ texts: [String], in width: Int) -> String {
            texts.first { $0.displayWidth <= width } ?? texts.last ?? ""
        }
    }

    func handle(_ event: InputEvent) async -> EventResult {
        if viewModel.pendingUnenroll != nil {
            switch YesNoQuestion.answer(to: event) {
            case .yes: viewModel.confirmUnenroll()
            case .no: viewModel.cancelUnenroll()
            case nil: break
            }
            return .handled
        }
        switch event {
        case .key(.character("r")):
            guard isAvailable(Keys.reload) else { return .ignored }
            viewModel.rows.readAgain()
            return .handled
        case .key(.character("u")):
            guard isAvailable(Keys.unenroll) else { return .ignored }
            viewModel.requestUnenroll()
            return .handled
        case .key(.enter):
            guard let selected = viewModel.rows.selected else { return .ignored }
            if let lesson = Self.nextLesson(selected) { onOpenLesson(selected.id, lesson) } else { onCourseSelected(selected.id) }
            return .handled
        case .key(.character("o")):
            guard let selected = viewModel.rows.selected else { return .ignored }
            onCourseSelected(selected.id)
            return .handled
        case .key(let key):
            return viewModel.rows.moveSelection(key, pageSize: listArea.height) ? .handled : .ignored
        case .mouse(.doubleClick(let x, let y)):
            guard viewModel.rows.applyMouse(.click(x: x, y: y), listArea: listArea), let selected = viewModel.rows.selected else {
                return .ignored
            }
            onCourseSelected(selected.id)
            return .handled
        case .mouse(let mouse):
            return viewModel.rows.applyMouse(mouse, listArea: listArea) ? .handled : .ignored
        case .resize:
            return .ignored
        }
    }
}
