import Presentation
import SharedKernel
import TerminalUI

/// The catalog tab's root: a table of courses sorted by title, searchable.
@MainActor
final class CatalogListScreen: Screen {
    enum Keys {
        static let open = KeyDeclaration("Enter", "open", help: "open the course", action: "catalog.open")
        static let search = KeyDeclaration(
            "/", "search", help: "search title, instructor and tags; on a kept filter, edit it", action: "catalog.search")
        static let keepFilter = KeyDeclaration(
            "Enter", "keep filter", help: "while searching: keep the filter and go back to the list", action: "catalog.keep_filter")
        static let clearFilter = KeyDeclaration(
            "Esc", "clear", help: "while searching, or with a kept filter (also q): clear it", action: "catalog.clear_filter")
        static let favourite = KeyDeclaration("f", "favourite", help: "mark or unmark as a favourite ★", action: "catalog.favourite")
        static let reload = KeyDeclaration("r", "reload", help: "read the catalog again (retry after an error)", action: "catalog.reload")
        /// One line of the help for both: its first screen keeps the marks and the filters.
        static let sort = KeyDeclaration(
            "s S", "sort", help: "sort: title, price, duration, level, newest (S reverses)", inFooter: false,
            keys: [.character("s"), .character("S")],
            actions: [
                KeyAction("catalog.sort", .character("s"), title: "Sort by the next order"),
                KeyAction("catalog.reverse", .character("S"), title: "Reverse the order"),
            ])
    }

    nonisolated static let declaredKeys =
        ListKeys.all + [Keys.open, Keys.search, Keys.keepFilter, Keys.clearFilter, Keys.favourite, Keys.reload, Keys.sort]

    /// What the marks of a row mean.
    nonisolated static let marksHelp = HelpSection(
        "Marks",
        keys: [
            KeyHint("★", "a favourite (dim while it is being saved)"),
            KeyHint("✓", "enrolled"),
            KeyHint("full", "no seat left"),
            KeyHint("closed", "not open for enrollment"),
            KeyHint("locked", "complete its prerequisite first"),
        ])

    /// What the search understands.
    nonisolated static let filtersHelp = HelpSection("Search and filters", keys: CatalogQuery.filterHelp.map { KeyHint($0.key, $0.help) })

    private let viewModel: CatalogListViewModel
    private let source: CatalogSource
    private let onCourseSelected: @MainActor (CourseID) -> Void
    /// Where the rows were last drawn, for page size and mouse hits. Not observed: it is
    /// written while drawing.
    private var listArea = Rect(x: 0, y: 0, width: 0, height: 10)
    /// The window's column widths and the revision of the rows they were measured on:
    /// measuring every text of the window costs more than a frame should.
    private var measured: (revision: Int, language: Language, widths: CatalogTable.ContentWidths)?

    private let layout: LayoutSettings

    init(
        viewModel: CatalogListViewModel, source: CatalogSource = .localDatabase, layout: LayoutSettings = LayoutSettings(),
        onCourseSelected: @escaping @MainActor (CourseID) -> Void
    ) {
        self.viewModel = viewModel
        self.source = source
        self.layout = layout
        self.onCourseSelected = onCourseSelected
    }

    var keys: [KeyDeclaration] { Self.declaredKeys }
    var notes: [HelpSection] { [Self.marksHelp, Self.filtersHelp] }

    /// A filter the search does not know says so, and filters nothing.
    var statusMessage: StatusMessage? {
        viewModel.parsed.unknownMessage.map { .error($0) }
    }

    func availability(of key: KeyDeclaration) -> KeyAvailability {
        let hasRows = viewModel.selectedCourse != nil
        if viewModel.isEditingSearch {
            // The field has every key (the shell explains none of them); these act on it.
            return key == Keys.keepFilter || key == Keys.clearFilter || (key == ListKeys.move && hasRows) ? .available : .dormant
        }
        switch key {
        case Keys.keepFilter: return .dormant
        // Without a kept filter, Esc and q are the shell's (back, quit).
        case Keys.clearFilter: return viewModel.hasKeptFilter ? .available : .dormant
        case Keys.search:
            if viewModel.state.value != nil || viewModel.state == .empty { return .available }
            if case .error = viewModel.state { return .unavailable(reason: "The catalog could not be read — press r to retry") }
            return .unavailable(reason: "The catalog is being read")
        case Keys.reload: return viewModel.rows.isSettled ? .available : .unavailable(reason: "The catalog is being read")
        case Keys.sort:
            if case .error = viewModel.state { return .unavailable(reason: "The catalog could not be read — press r to retry") }
            return .available
        case Keys.open, Keys.favourite: return hasRows ? .available : .unavailable(reason: "No course selected")
        default: return hasRows ? .available : .dormant
        }
    }

    /// While the search field is open every key but Ctrl-C goes to it.
    var isCapturingText: Bool { viewModel.isEditingSearch }
    var isAnimating: Bool { viewModel.state.isLoading || viewModel.rows.isRefreshing || viewModel.rows.isUnsettled }

    /// Typing into the search field never waits; a key that acts on the rows waits until
    /// they are the rows of what was typed.
    func accepts(_ event: InputEvent) -> Bool {
        if viewModel.isEditingSearch, case .key(let key) = event, !Self.movesListWhileSearching(key) { return true }
        return viewModel.rows.isSettled
    }

    func appear() {
        let rows = viewModel.rows
        viewModel.tasks.run { await rows.appear() }
    }

    func disappear() {
        viewModel.tasks.cancelAll()
        viewModel.rows.cancel()
    }

    func settle() async {
        await viewModel.tasks.settle()
        await viewModel.rows.settle()
    }

    func draw(in canvas: inout some Canvas, frame: Frame) {
        let query = viewModel.query
        let texts = frame.texts
        let empty: [LocalizedText] =
            query.isEmpty ? Self.emptyCatalogText(source) : ["No courses match \"\(query)\"", "Press Esc to clear the search"]
        let searching = viewModel.isEditingSearch || !query.isEmpty
        if searching {
            drawSearchLine(in: &canvas, area: frame.area, tick: frame.tick, texts: texts)
        }
        let below = searching ? frame.area.droppingTop(1) : frame.area
        StateView.draw(viewModel.state, in: &canvas, area: below, tick: frame.tick, texts: texts, empty: empty) { canvas, courses in
            // A wide terminal: the list at a readable measure, the selected course beside it.
            guard let panes = CoursePreview.split(frame.area, from: layout.wideFrom) else {
                return drawTable(courses, in: &canvas, area: frame.area, tick: frame.tick, texts: texts)
            }
            drawTable(courses, in: &canvas, area: panes.list, tick: frame.tick, texts: texts)
            if let course = viewModel.selectedCourse {
                let preview = panes.preview.droppingTop(searching ? 1 : 0)
                CoursePreview.draw(course, marks: viewModel.learner.marks(course), in: &canvas, area: preview, texts: texts)
            }
        }
    }

    /// What an empty catalog says: the local import fills the local database only, so a
    /// server's empty catalog says where courses come from instead.
    static func emptyCatalogText(_ source: CatalogSource) -> [LocalizedText] {
        switch source {
        case .localDatabase: ["The catalog has no courses yet", "Import some with: tui import-courses FILE"]
        case .server(let host): ["\(host) has no courses yet", "Courses imported on the server appear here"]
        }
    }

    /// The search line: `/`, the field (or the kept filter), the count of matches and a
    /// spinner while the results of what was typed are on their way.
    private func drawSearchLine(in canvas: inout some Canvas, area: Rect, tick: Int, texts: Texts) {
        let content = area.insetBy(horizontal: 1)
        let y = area.y
        canvas.fill(Rect(x: area.x, y: y, width: area.width, height: 1), style: .normal)
        canvas.draw("/", x: content.x, y: y, style: .accent)
        // While the rows of what was typed are on their way, the count of the query before
        // would be a wrong answer: the spinner alone stands there. Then: `2 matches  1/2`.
        var count: String
        if viewModel.rows.isUnsettled {
            count = Spinner.frame(tick: tick)
        } else {
            let matches = viewModel.countText(matches: true).map { texts($0) } ?? ""
            let position = viewModel.state.value == nil ? "" : "  " + texts(viewModel.positionText)
            count = (viewModel.rows.isRefreshing ? "\(Spinner.frame(tick: tick)) " : "") + matches + position
        }
        // An order other than title's says so, briefly: the field keeps the room.
        if viewModel.sort != .title { count = "↕ " + texts(viewModel.sort.shortLabel) + "  " + count }
        let fieldWidth = max(1, content.width - 2 - count.displayWidth - 1)
        viewModel.searchField.draw(in: &canvas, x: content.x + 2, y: y, width: fieldWidth, focused: viewModel.isEditingSearch)
        canvas.draw(count, x: content.x + content.width - count.displayWidth, y: y, style: .dim)
    }

    private func drawTable(_ courses: [Course], in canvas: inout some Canvas, area: Rect, tick: Int, texts: Texts) {
        let filtering = viewModel.isEditingSearch || !viewModel.query.isEmpty
        let content = area.insetBy(horizontal: 1)
        var sortEnd = content.x
        let learner = viewModel.learner
        // The accessible mode spells the marks; their column is as wide as the rows need.
        let markWords =
            canvas.isAccessible
            ? courses.lazy.map { course in
                let marks = learner.marks(course)
                return CatalogTable.Row.markWords(favourite: marks.isFavourite, enrolled: marks.isEnrolled, texts: texts).displayWidth
            }.max() ?? 0 : nil
        let table = CatalogTable(
            contentWidths: contentWidths(of: courses, texts: texts), width: content.width, texts: texts, markWords: markWords)
        if !filtering {
            var x = content.x + canvas.draw(texts("Catalog"), x: content.x, y: content.y, style: .bold)
            if let count = viewModel.countText(matches: false) {
                x += canvas.draw("  " + texts(count), x: x, y: content.y, style: .dim)
            }
            if viewModel.rows.isRefreshing || viewModel.rows.isUnsettled {
                x += canvas.draw(" \(Spinner.frame(tick: tick))", x: x, y: content.y, style: .dim)
            }
            sortEnd = x
        }
        var positionStart = content.x + content.width
        if !filtering, !viewModel.rows.isUnsettled {
            // While searching, the search line holds the count and the position; while the
            // rows of what was asked are on their way, the place in them is not known yet.
            let position = texts(viewModel.positionText)
            positionStart -= position.displayWidth
            canvas.draw(position, x: positionStart, y: content.y, style: .dim)
        }
        if !filtering {
            // The order, left of the position: `↕ price by currency, lowest first`, else its
            // short name (`↕ price ↑`) where that is all that fits.
            let room = positionStart - 2 - (sortEnd + 2)
            let order = [viewModel.sort.label, viewModel.sort.shortLabel].map { "↕ " + texts($0) }.first { $0.displayWidth <= room }
            if let order { canvas.draw(order, x: positionStart - 2 - order.displayWidth, y: content.y, style: .dim) }
        }
        table.drawHeadings(in: &canvas, x: content.x, y: content.y + 1)

        listArea = Rect(x: area.x, y: area.y + 2, width: area.width, height: area.height - 2)
        // The selection bar stops at the list's edge when a preview is beside it.
        ListView.draw(in: &canvas, area: listArea, itemCount: courses.count, state: viewModel.list) { canvas, index, line, isSelected in
            let row = CatalogTable.Row(course: courses[index], marks: learner.marks(courses[index]))
            table.draw(row, in: &canvas, x: content.x, y: line.y, isSelected: isSelected)
        }
        // `s`/`S` changed what the list is: a screen reader reads the line that names the order.
        if viewModel.orderJustChanged, !filtering { canvas.markFocus(x: content.x, y: content.y) }
    }

    private func contentWidths(of courses: [Course], texts: Texts) -> CatalogTable.ContentWidths {
        let revision = viewModel.rows.revision
        if let measured, measured.revision == revision, measured.language == texts.language { return measured.widths }
        let widths = CatalogTable.contentWidths(of: courses, texts: texts)
        measured = (revision, texts.language, widths)
        return widths
    }

    func handle(_ event: InputEvent) async -> EventResult {
        if event != .key(.character("s")), event != .key(.character("S")) { viewModel.keyPressed() }
        if viewModel.isEditingSearch { return await handleSearch(event) }
        switch event {
        case .key(.character("/")):
            guard isAvailable(Keys.search) else { return .ignored }
            viewModel.beginSearch()
            return .handled
        case .key(.escape), .key(.character("q")):
            // With a kept filter these clear it; otherwise they are the shell's (back, quit).
            guard viewModel.hasKeptFilter else { return .ignored }
            viewModel.clearSearch()
            return .handled
        case .key(.character("f")):
            guard let course = viewModel.selectedCourse else { return .ignored }
            viewModel.toggleFavourite(course)
            return .handled
        case .key(.character("r")):
            viewModel.reload()
            return .handled
        case .key(.character("s")):
            guard isAvailable(Keys.sort) else { return .ignored }
            viewModel.order(by: viewModel.sort.next)
            return .handled
        case .key(.character("S")):
            guard isAvailable(Keys.sort) else { return .ignored }
            viewModel.order(by: viewModel.sort.reversed)
            return .handled
        case .key(.enter):
            guard let course = viewModel.selectedCourse else { return .ignored }
            onCourseSelected(course.id)
            return .handled
        case .key(let key):
            return await viewModel.rows.handle(key, pageSize: listArea.height) ? .handled : .ignored
        case .mouse(.doubleClick(let x, let y)):
            guard viewModel.rows.handle(.click(x: x, y: y), area: listArea), let course = viewModel.selectedCourse else { return .ignored }
            onCourseSelected(course.id)
            return .handled
        case .mouse(let mouse):
            return viewModel.rows.handle(mouse, area: listArea) ? .handled : .ignored
        case .resize:
            return .ignored
        }
    }

    /// Keys while the search field is open: list moves still work, Enter keeps the filter,
    /// Esc clears it, everything else edits the query (and filters live).
    private func handleSearch(_ event: InputEvent) async -> EventResult {
        switch event {
        case .key(.enter):
            viewModel.keepSearch()
        case .key(.escape):
            viewModel.clearSearch()
        case .key(let key) where Self.movesListWhileSearching(key):
            _ = await viewModel.rows.handle(key, pageSize: listArea.height)
        case .key(let key):
            viewModel.editSearch(key)
        case .mouse(let mouse):
            _ = viewModel.rows.handle(mouse, area: listArea)
        case .resize:
            break
        }
        return .handled
    }

    /// While searching, letters (`j k g G` too) and Home/End edit the field; only these move
    /// the list.
    private static func movesListWhileSearching(_ key: Key) -> Bool {
        [.up, .down, .pageUp, .pageDown].contains(key)
    }
}
