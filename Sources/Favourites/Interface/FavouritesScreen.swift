import Presentation
import SharedKernel
import TerminalUI

/// Tab 3: the learner's favourite courses.
@MainActor
final class FavouritesScreen: Screen {
    static let emptyText: [LocalizedText] = ["No favourites yet", "Press f on a course in the catalog (tab 1) to keep it here"]

    enum Keys {
        static let open = KeyDeclaration("Enter", "open", help: "open the course", action: "favourites.open")
        static let remove = KeyDeclaration("f", "remove", help: "remove from favourites", action: "favourites.remove")
        static let reload = KeyDeclaration("r", "reload", help: "read the list again (retry after an error)", action: "favourites.reload")
    }

    nonisolated static let declaredKeys = ListKeys.all + [Keys.open, Keys.remove, Keys.reload]

    private let viewModel: FavouritesViewModel
    private let onCourseSelected: @MainActor (CourseID) -> Void
    /// Where the rows were last drawn; written while drawing, so not observed.
    private var listArea = Rect(x: 0, y: 0, width: 0, height: 10)
    /// The column widths and the build of the list they were measured on: measured when the
    /// list changes, not on every frame.
    private var measured: (list: ObjectIdentifier, language: Language, widths: [Int])?

    init(viewModel: FavouritesViewModel, onCourseSelected: @escaping @MainActor (CourseID) -> Void) {
        self.viewModel = viewModel
        self.onCourseSelected = onCourseSelected
    }

    var keys: [KeyDeclaration] { Self.declaredKeys }

    func availability(of key: KeyDeclaration) -> KeyAvailability {
        switch key {
        case Keys.reload:
            viewModel.model.state.value != nil || isError ? .available : .unavailable(reason: "Your favourites are being read")
        case Keys.open, Keys.remove: viewModel.rows.selected == nil ? .unavailable(reason: "No course selected") : .available
        default: viewModel.rows.selected == nil ? .dormant : .available
        }
    }

    private var isError: Bool { viewModel.rows.isError }

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
        StateView.draw(viewModel.rows.shown, in: &canvas, area: frame.area, tick: frame.tick, texts: texts, empty: Self.emptyText) {
            canvas, courses in
            drawTable(courses, in: &canvas, area: frame.area, tick: frame.tick, texts: texts)
        }
    }

    private func drawTable(_ courses: [Course], in canvas: inout some Canvas, area: Rect, tick: Int, texts: Texts) {
        let content = area.insetBy(horizontal: 1)
        let list = viewModel.rows.list
        var x = content.x + canvas.draw(texts("Favourites"), x: content.x, y: content.y, style: .bold)
        x += canvas.draw("  " + texts("\(courses.count) courses"), x: x, y: content.y, style: .dim)
        if viewModel.model.isRefreshing {
            canvas.draw(" \(Spinner.frame(tick: tick))", x: x, y: content.y, style: .dim)
        }
        let position = "\(list.selectedIndex + 1)/\(courses.count)"
        canvas.draw(position, x: content.x + content.width - position.displayWidth, y: content.y, style: .dim)
        let table = Self.table(widths: contentWidths(of: courses, texts: texts), width: content.width, texts: texts)
        table.drawHeadings(in: &canvas, x: content.x, y: content.y + 1)
        listArea = Rect(x: area.x, y: area.y + 2, width: area.width, height: area.height - 2)
        ListView.draw(in: &canvas, area: listArea, itemCount: courses.count, state: list) { canvas, index, line, isSelected in
            let course = courses[index]
            let saving = viewModel.model.isSaving(course.id)
            var cells = Column.allCases.map { Self.text($0, of: course, width: table.width(of: $0.rawValue), texts: texts) }
            // Every row is a favourite: the accessible mode does not say it on each.
            if canvas.isAccessible { cells[Column.marks.rawValue] = "" }
            var styles = [Style?](repeating: nil, count: cells.count)
            if !isSelected {
                styles[Column.marks.rawValue] = saving ? .dim : .marks
                styles[Column.instructor.rawValue] = .dim
            }
            table.draw(cells, styles: styles, in: &canvas, x: content.x, y: line.y, style: isSelected ? .selection : .normal)
        }
    }

    enum Column: Int, CaseIterable {
        case marks, title, instructor, level, price
    }

    /// The title keeps its room; the level shortens first, then the instructor goes.
    static let columns: [TableColumn] = Column.allCases.map { column in
        switch column {
        case .marks: .marks
        case .title: .title
        case .instructor: TableColumn("Instructor", width: .flexible(min: 10, max: 24), givesWay: 2, droppable: true)
        case .level: TableColumn("Level", compactHeading: "Lvl", width: .choices([12, 3]), givesWay: 1)
        case .price: TableColumn("Price", width: .flexible(min: 5, max: 14), alignment: .trailing)
        }
    }

    private func contentWidths(of courses: [Course], texts: Texts) -> [Int] {
        let list = viewModel.courses.identity
        if let measured, measured.list == list, measured.language == texts.language { return measured.widths }
        let measuring = [Column.title, .instructor, .price].map(\.rawValue)
        let widths = Table.contentWidths(of: courses, columns: Self.columns.map { $0.translated(texts) }, measuring: measuring) {
            course, column in Self.text(Column(rawValue: column) ?? .title, of: course, width: .max, texts: texts)
        }
        measured = (list, texts.language, widths)
        return widths
    }

    static func table(widths: [Int], width: Int, texts: Texts) -> Table {
        Table(columns.map { $0.translated(texts) }, contentWidths: widths, width: width, primary: Column.title.rawValue, primaryTarget: 48)
    }

    static func text(_ column: Column, of course: Course, width: Int, texts: Texts) -> String {
        switch column {
        case .marks: "★"
        case .title: course.title
        case .instructor: course.instructor
        case .level:
            width >= texts(course.level.displayName).displayWidth ? texts(course.level.displayName) : texts(course.level.shortName)
        case .price: texts("\(course.price)")
        }
    }

    func handle(_ event: InputEvent) async -> EventResult {
        switch event {
        case .key(.character("r")):
            guard isAvailable(Keys.reload) else { return .ignored }
            viewModel.rows.readAgain()
            return .handled
        case .key(.character("f")):
            guard let course = viewModel.rows.selected else { return .ignored }
            viewModel.remove(course)
            return .handled
        case .key(.enter):
            guard let course = viewModel.rows.selected else { return .ignored }
            onCourseSelected(course.id)
            return .handled
        case .key(let key):
            return viewModel.rows.moveSelection(key, pageSize: listArea.height) ? .handled : .ignored
        case .mouse(.doubleClick(let x, let y)):
            guard viewModel.rows.applyMouse(.click(x: x, y: y), listArea: listArea), let course = viewModel.rows.selected else {
                return .ignored
            }
            onCourseSelected(course.id)
            return .handled
        case .mouse(let mouse):
            return viewModel.rows.applyMouse(mouse, listArea: listArea) ? .handled : .ignored
        case .resize:
            return .ignored
        }
    }
}
