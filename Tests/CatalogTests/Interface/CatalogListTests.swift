import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import Catalog

@Suite("Catalog list")
@MainActor
final class CatalogListTests {
    /// What `makeSUT` made: each must be gone once the test is.
    private let leaks = LeakTracker()

    deinit {
        #expect(leaks.alive == [], "kept alive after the test")
    }

    static let two = [
        Course.fixture(
            id: "a", title: "Agile and Scrum", instructor: "Daniel Okafor", level: .beginner, durationMinutes: 130,
            price: Price(minorUnits: 2500, currency: "EUR")),
        Course.fixture(
            id: "b", title: "Building a Design System", instructor: "Søren Lindqvist", level: .advanced, durationMinutes: 260,
            price: Price(minorUnits: 0, currency: "EUR")),
    ]

    @Test("the loaded list shows columns, rows in order and the selection")
    func loadedList() async {
        let (sut, _, _) = await makeSUT(Self.two)
        _ = await sut.handle(.key(.down))

        let canvas = draw(sut)

        #expect(
            Array(canvas.lines[1...4]) == [
                " Catalog  2 courses                                            ↕ title A–Z  2/2",
                "    Title                     Instructor       Level         Duration     Price",
                "    Agile and Scrum           Daniel Okafor    Beginner      2h 10min 25.00 EUR",
                "    Building a Design System  Søren Lindqvist  Advanced      4h 20min      Free",
            ])
        #expect(canvas.style(atX: 10, y: 4) == .selection)
        #expect(canvas.style(atX: 10, y: 3) == .normal)
    }

    @Test("★ and ✓ share the gutter; a course the learner cannot join says why in its row")
    func marks() async {
        let courses = [
            Course.fixture(id: "a", title: "Alpha"),
            .fixture(id: "b", title: "Beta", capacity: 10, enrolledCount: 10),
            .fixture(id: "c", title: "Gamma", isActive: false),
            .fixture(id: "d", title: "Delta", prerequisiteID: "a"),
            .fixture(id: "e", title: "Epsilon", prerequisiteID: "a"),
        ]
        let learner = LearnerStub()
        learner.favourites = ["a", "b"]
        learner.enrollments = ["a": .fixture(courseID: "a"), "e": .fixture(courseID: "e")]
        let (sut, _, _) = await makeSUT(courses, learner: learner)

        let lines = draw(sut).lines

        #expect(lines[3].hasPrefix(" ★✓ Alpha           María García"))
        #expect(lines[4].hasPrefix(" ★  Beta    full    María García"))
        #expect(lines[5].hasPrefix("    Delta   locked  María García"))
        #expect(lines[6].hasPrefix("  ✓ Epsilon         María García"), "enrolled: ✓ says it, no word")
        #expect(lines[7].hasPrefix("    Gamma   closed  María García"))
    }

    @Test("loading shows a spinner and Loading…, and keys wait for the rows")
    func loading() async {
        let gate = Gate()
        let (sut, _, store) = await makeSUT([.fixture()], load: false)
        await store.setGate(gate)

        sut.appear()
        await gate.waitForArrivals(1)
        let canvas = draw(sut)

        #expect(canvas.text.contains("⠋ Loading…"))
        #expect(sut.isAnimating)
        #expect(!sut.accepts(.key(.down)))
        #expect(!sut.accepts(.char("f")))
        await gate.open()
        await sut.settle()
        #expect(sut.accepts(.key(.down)))
    }

    @Test(
        "an empty catalog says so and what to do next, true of where its courses come from",
        arguments: [
            (CatalogSource.localDatabase, ["The catalog has no courses yet", "Import some with: tui import-courses FILE"]),
            (.server(host: "127.0.0.1:8080"), ["127.0.0.1:8080 has no courses yet", "Courses imported on the server appear here"]),
        ])
    func empty(source: CatalogSource, expected: [String]) async {
        let (sut, _, _) = await makeSUT([], source: source)

        let text = draw(sut).text

        for line in expected { #expect(text.contains(line), "\(text)") }
        if source != .localDatabase { #expect(!text.contains("tui import-courses"), "the local import does nothing for a server") }
    }

    @Test("an error shows the message and Press r to retry; the footer offers r only; r retries")
    func error() async {
        let (sut, _, store) = await makeSUT([.fixture()], failure: .connectivity)

        let text = draw(sut).text

        #expect(text.contains(AppError.connectivity.userMessage.english))
        #expect(text.contains("Press r to retry"))
        #expect(sut.availableKeys == [CatalogListScreen.Keys.reload])
        await store.setFailure(nil)
        #expect(await sut.handle(.char("r")) == .handled)
        await sut.settle()
        #expect(sut.availableKeys.contains(CatalogListScreen.Keys.favourite))
    }

    @Test("a course on screen that the store changed is read again where it is, the selection kept")
    func courseChangedInTheStore() async {
        let changes = Notices<CatalogChange>()
        let (sut, viewModel, store) = await makeSUT(Self.two, changes: changes)
        _ = await sut.handle(.key(.down))
        let selected = viewModel.selectedCourse
        var changed = Self.two[0]
        (changed.capacity, changed.enrolledCount) = (10, 10)
        await store.addCourses([changed])

        changes.post(.course("a"))
        await sut.settle()

        #expect(viewModel.selectedCourse?.id == selected?.id)
        #expect(viewModel.rows.items.first { $0.id == "a" }?.isFull == true)
    }

    @Test("news of a course that is not on screen, or of marks a plain list does not ask about, reads nothing")
    func unrelatedNewsReadsNothing() async {
        let changes = Notices<CatalogChange>()
        let (sut, _, store) = await makeSUT(Self.two, changes: changes)
        let before = await store.messages.count

        changes.post(.course("elsewhere"))
        changes.post(.marks)
        await sut.settle()

        #expect(await store.messages.count == before)
    }

    @Test("the learner's marks changed elsewhere: a list of their own (is:favourite) is read again")
    func marksChangedUnderAnOwnFilter() async {
        let changes = Notices<CatalogChange>()
        let (sut, viewModel, store) = await makeSUT(Self.two, changes: changes)
        viewModel.beginSearch()
        for character in "is:favourite" { viewModel.editSearch(.character(character)) }
        await sut.settle()
        let before = await store.messages.count

        changes.post(.marks)
        await sut.settle()

        #expect(await store.messages.count > before)
    }

    @Test("r reads the learner's marks again with the catalog")
    func reloadReadsMarks() async {
        let learner = LearnerStub()
        let (sut, _, _) = await makeSUT(Self.two, learner: learner)

        _ = await sut.handle(.char("r"))
        await sut.settle()

        #expect(learner.actions == [.readAgain(nil)])
    }

    @Test("r keeps the rows on screen while it reads them again, with a spinner in the title line")
    func reloadKeepsRows() async {
        let gate = Gate()
        let (sut, _, store) = await makeSUT(Self.two)
        await store.setGate(gate)
        let arrived = await gate.arrivals

        _ = await sut.handle(.char("r"))
        await gate.waitForArrivals(arrived + 1)
        let lines = draw(sut).lines

        #expect(lines[1].hasPrefix(" Catalog  2 courses ⠋"))
        #expect(lines[3].hasPrefix("    Agile and Scrum"))
        #expect(sut.accepts(.key(.down)), "what is on screen is current: keys act on it")
        await gate.open()
        await sut.settle()
    }

    @Test("a course of 10 hours and more, priced 100 or more, shows both whole and aligned", arguments: [80, 60])
    func longDurationAndPrice(width: Int) async {
        let courses = [
            Course.fixture(
                id: "a", title: "Long", level: .intermediate, durationMinutes: 630, price: Price(minorUnits: 11_970, currency: "EUR")),
            Course.fixture(id: "b", title: "Short", durationMinutes: 45, price: Price(minorUnits: 0, currency: "EUR")),
        ]
        let (sut, _, _) = await makeSUT(courses)

        let lines = draw(sut, width: width).lines

        #expect(lines[3].hasSuffix(" 10h 30min 119.70 EUR"), "\(lines[3])")
        #expect(lines[4].hasSuffix("     45min       Free"), "\(lines[4])")
        #expect(lines[2].hasSuffix(" Duration      Price"), "\(lines[2])")
        #expect(Set(lines[2...4].map(\.displayWidth)).count == 1, "the amounts end in one column")
    }

    @Test("a long title and a CJK title keep the columns aligned; a long title keeps its room before the instructor")
    func alignment() async {
        let courses = [
            Course.fixture(id: "a", title: "A Very Long Course Title That Certainly Does Not Fit In Its Column", instructor: "Ann"),
            Course.fixture(id: "b", title: "日本語入門: Japanese for Beginners", instructor: "王芳 (Wang Fang)"),
            Course.fixture(id: "c", title: "Short", instructor: "Bo"),
        ]
        let (sut, _, _) = await makeSUT(courses)

        let lines = draw(sut).lines

        let rows = lines[3...5]
        #expect(Set(rows.map(\.displayWidth)).count == 1)
        #expect(Set(rows.map { $0.prefixWidth(upTo: "Beg  2h") }).count == 1)
        #expect(lines[3] == "    A Very Long Course Title That Certainly Does Not …  Beg  2h 30min 35.99 EUR")
        #expect(lines[4] == "    Short                                               Beg  2h 30min 35.99 EUR")
        #expect(lines[5] == "    日本語入門: Japanese for Beginners                  Beg  2h 30min 35.99 EUR")
    }

    @Test("Enter and a double click open the selected course; other keys are not used")
    func opens() async {
        var opened: [CourseID] = []
        let (sut, _, _) = await makeSUT([.fixture(id: "a", title: "A"), .fixture(id: "b", title: "B")]) { opened.append($0) }
        _ = draw(sut)

        #expect(await sut.handle(.key(.end)) == .handled)
        #expect(await sut.handle(.key(.enter)) == .handled)
        #expect(await sut.handle(.char("x")) == .ignored)
        #expect(await sut.handle(.mouse(.doubleClick(x: 10, y: 3))) == .handled)
        #expect(opened == ["b", "a"])
    }

    @Test("f marks the row it was pressed on: f j f in one burst marks both rows, and the footer says so")
    func favouriteBurst() async {
        let learner = LearnerStub()
        let (sut, _, _) = await makeSUT(Self.two, learner: learner)

        for event in [InputEvent.char("f"), .char("j"), .char("f")] {
            _ = await sut.handle(event)
        }
        await sut.settle()

        #expect(learner.actions == [.toggleFavourite("a"), .toggleFavourite("b")])
        #expect(learner.favourites == ["a", "b"])
        #expect(learner.reported.count == 2)
    }

    @Test("a ★ being saved is drawn dim; confirmed, in the marks' style")
    func savingMark() async {
        let learner = LearnerStub()
        learner.favourites = ["a"]
        learner.saving = ["a"]
        let (sut, _, _) = await makeSUT(Self.two, learner: learner)
        _ = await sut.handle(.key(.down))

        #expect(draw(sut).style(atX: 1, y: 3) == .dim)
        learner.saving = []
        #expect(draw(sut).style(atX: 1, y: 3) == .marks)
    }

    // MARK: - Helpers

    @Test("from 140 columns the selected course shows beside the list, which keeps a readable measure; narrower, or off, it does not")
    func widePreview() async {
        let learner = LearnerStub()
        learner.favourites = ["b"]
        let courses = [
            Course.fixture(id: "a", title: "Alpha Course", description: "The first course."),
            Course.fixture(id: "b", title: "Beta Course", instructor: "Ada Lovelace", description: "A course on engines, at length."),
        ]
        let layout = LayoutSettings()
        let (sut, _, _) = await makeSUT(courses, learner: learner, layout: layout)
        _ = await sut.handle(.key(.down))

        let wide = draw(sut, width: 160, height: 24)
        #expect(wide.lines[1].contains("│ Beta Course"), "\(wide.lines)")
        #expect(wide.lines[2].hasSuffix("│ by Ada Lovelace"))
        #expect(wide.lines.contains { $0.contains("│ Status      ★ Favourite") })
        #expect(wide.lines.contains { $0.contains("│ A course on engines, at length.") })
        #expect(wide.lines[1].firstIndex(of: "│").map { wide.lines[1].distance(from: wide.lines[1].startIndex, to: $0) } == 100)

        #expect(!draw(sut, width: 139, height: 24).text.contains("│ Beta Course"))
        layout.wideFrom = nil
        #expect(!draw(sut, width: 200, height: 24).text.contains("│ Beta Course"))
    }

    @Test("s reads the list in the next order and S reverses it, named in the title line; a search keeps the order")
    func sorting() async {
        let courses = [
            Course.fixture(id: "a", title: "Agile", level: .advanced, durationMinutes: 60, price: Price(minorUnits: 900, currency: "EUR")),
            Course.fixture(id: "b", title: "Baking", level: .beginner, durationMinutes: 30, price: Price(minorUnits: 0, currency: "EUR")),
            Course.fixture(
                id: "c", title: "Cycling", level: .beginner, durationMinutes: 90, price: Price(minorUnits: 500, currency: "EUR")),
        ]
        let (sut, viewModel, _) = await makeSUT(courses)
        #expect(draw(sut).lines[1].contains("↕ title A–Z"))

        _ = await sut.handle(.char("s"))
        await sut.settle()
        #expect(viewModel.rows.items.map(\.id) == ["b", "c", "a"])
        #expect(draw(sut).lines[1].contains("↕ price by currency, lowest first  3/3"), "Agile stays selected")
        _ = await sut.handle(.char("S"))
        await sut.settle()
        #expect(viewModel.rows.items.map(\.id) == ["a", "c", "b"])
        #expect(draw(sut).lines[1].contains("↕ price by currency, highest first"))
        #expect(draw(sut, width: 44).lines[1].contains("↕ price ↓  1/3"), "in a word where the whole label does not fit")
        #expect(!draw(sut, width: 30).lines[1].contains("↕"), "nothing where not even that fits")
        _ = await sut.handle(.char("s"))
        await sut.settle()
        #expect(viewModel.rows.items.map(\.id) == ["b", "a", "c"], "duration, shortest first")
        _ = await sut.handle(.char("s"))
        await sut.settle()
        #expect(viewModel.rows.items.map(\.id) == ["b", "c", "a"], "level, then title")
        _ = await sut.handle(.char("s"))
        await sut.settle()
        #expect(viewModel.rows.items.map(\.id) == ["c", "b", "a"], "newest first: added last")

        // A search in that order: the search line names it.
        _ = await sut.handle(.char("/"))
        _ = await sut.handle(.char("b"))
        await sut.settle()
        _ = await sut.handle(.key(.enter))
        #expect(viewModel.rows.items.map(\.id) == ["b"])
        #expect(draw(sut).lines[1].contains("↕ newest  1 match"))
        _ = await sut.handle(.key(.escape))
        await sut.settle()
        #expect(viewModel.rows.items.map(\.id) == ["c", "b", "a"])
        _ = await sut.handle(.char("s"))
        await sut.settle()
        #expect(viewModel.rows.items.map(\.id) == ["a", "b", "c"], "after newest, title again")
    }

    @Test("Esc on a kept filter shows the whole catalog again with the course selected in the filter still selected")
    func clearingKeepsSelection() async throws {
        let courses = (0..<40).map { Course.fixture(id: CourseID("c\($0)"), title: String(format: "Course %02d", $0)) }
        let (sut, viewModel, _) = await makeSUT(courses, pageSize: 10)
        for key in [InputEvent.char("/"), .char("2"), .char("7")] { _ = await sut.handle(key) }
        await sut.settle()
        _ = await sut.handle(.key(.enter))
        #expect(viewModel.selectedCourse?.title == "Course 27")

        _ = await sut.handle(.key(.escape))
        await sut.settle()
        #expect(viewModel.selectedCourse?.title == "Course 27")
        _ = await sut.handle(.key(.down))
        #expect(viewModel.selectedCourse?.title == "Course 28", "its neighbours are the whole catalog's")
    }

    @Test("--accessible: after s the cursor is on the title line that names the new order; the next key takes it back to the rows")
    func focusOnTheOrder() async {
        let courses = (0..<5).map { Course.fixture(id: CourseID("c\($0)"), title: "Course \($0)") }
        let (sut, _, _) = await makeSUT(courses)
        func focusLine() -> String {
            var canvas = AccessibleCanvas(TextCanvas(size: Size(width: 80, height: 24)))
            sut.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))
            return canvas.focus.map { canvas.base.lines[$0.y] } ?? ""
        }
        #expect(focusLine().contains("Course 0"))
        _ = await sut.handle(.char("s"))
        await sut.settle()
        #expect(focusLine().contains("↕ price by currency, lowest first"))
        _ = await sut.handle(.key(.down))
        #expect(focusLine().contains("Course "), "\(focusLine())")
        #expect(!focusLine().contains("↕"))
    }

    @Test("s and S keep the selected course selected, in every order, however far it moves, with its neighbours in the new order")
    func sortingKeepsSelection() async throws {
        // Pages of 10 of 64 courses: the course moves to windows never read before.
        let courses = (0..<64).map { number in
            Course.fixture(
                id: CourseID("c\(number)"), title: "Course \(String(format: "%02d", number))",
                level: [.beginner, .intermediate, .advanced][number * 7 % 3], durationMinutes: 30 + number * 37 % 200,
                price: Price(minorUnits: number * 53 % 97 * 100, currency: "EUR"))
        }
        let (sut, viewModel, store) = await makeSUT(courses, pageSize: 10)
        for _ in 0..<5 { _ = await sut.handle(.key(.down)) }
        let chosen = try #require(viewModel.selectedCourse)
        #expect(chosen.title == "Course 05")

        for key in ["s", "S", "s", "s", "S", "s", "s"] {
            _ = await sut.handle(.char(Character(key)))
            await sut.settle()
            var query = CatalogQuery.parse("")
            query.sort = viewModel.sort
            let order = try await store.page(query, for: nil, at: .first, limit: 100).map(\.course.id)
            let place = try #require(order.firstIndex(of: chosen.id))
            #expect(viewModel.selectedCourse?.id == chosen.id, "in \(viewModel.sort)")
            // Its place is known where the rows before it were read to the top.
            #expect(viewModel.positionText.english == (place < 10 ? "\(place + 1)/64" : "?/64"), "in \(viewModel.sort)")
            #expect(draw(sut).text.contains("Course 05"), "on screen in \(viewModel.sort)")
            // Its neighbours are the new order's.
            if place > 0 {
                _ = await sut.handle(.key(.up))
                #expect(viewModel.selectedCourse?.id == order[place - 1], "in \(viewModel.sort)")
                _ = await sut.handle(.key(.down))
            }
            if place < 63 {
                _ = await sut.handle(.key(.down))
                #expect(viewModel.selectedCourse?.id == order[place + 1], "in \(viewModel.sort)")
                _ = await sut.handle(.key(.up))
            }
            #expect(viewModel.selectedCourse?.id == chosen.id)
        }
    }

    private func makeSUT(
        _ courses: [Course],
        learner: LearnerStub = LearnerStub(),
        failure: AppError? = nil,
        load: Bool = true,
        source: CatalogSource = .localDatabase,
        changes: Notices<CatalogChange> = Notices(),
        layout: LayoutSettings = LayoutSettings(),
        pageSize: Int = 100,
        onCourseSelected: @escaping @MainActor (CourseID) -> Void = { _ in }
    ) async -> (CatalogListScreen, CatalogListViewModel, InMemoryStore) {
        let store = InMemoryStore(courses: courses)
        if let failure { await store.setFailure(failure) }
        let viewModel = CatalogListViewModel(courses: store, learner: learner.learner, changes: changes, pageSize: pageSize)
        let screen = CatalogListScreen(viewModel: viewModel, source: source, layout: layout, onCourseSelected: onCourseSelected)
        leaks.track(viewModel)
        leaks.track(screen)
        if load {
            screen.appear()
            await screen.settle()
        }
        return (screen, viewModel, store)
    }
}

@Suite("Catalog search")
@MainActor
final class CatalogSearchTests {
    /// What `makeSUT` made: each must be gone once the test is.
    private let leaks = LeakTracker()

    deinit {
        #expect(leaks.alive == [], "kept alive after the test")
    }

    static let courses = [
        Course.fixture(id: "docker", title: "Docker Essentials", instructor: "İlker Yılmaz", tags: ["containers"]),
        Course.fixture(id: "agile", title: "Agile and Scrum", instructor: "Daniel Okafor"),
        Course.fixture(id: "resume", title: "Résumé Writing", instructor: "José Núñez"),
    ]

    @Test("typing filters live; Enter keeps the filter; Esc clears it")
    func typeKeepClear() async {
        let (sut, viewModel, _) = await makeSUT()

        _ = await sut.handle(.char("/"))
        for character in "nunez" { _ = await sut.handle(.char(character)) }
        await sut.settle()
        #expect(viewModel.rows.items.map(\.id) == ["resume"])
        #expect(draw(sut).lines[1].hasPrefix(" / nunez"))
        _ = await sut.handle(.key(.enter))
        #expect(!viewModel.isEditingSearch)
        #expect(viewModel.hasKeptFilter)
        #expect(sut.availableKeys.contains(CatalogListScreen.Keys.clearFilter))

        _ = await sut.handle(.key(.escape))
        await sut.settle()
        #expect(viewModel.rows.items.count == 3)
        #expect(viewModel.query == "")
    }

    @Test(
        "q or Esc with a kept filter clear it instead of leaving; without one they are the shell's",
        arguments: [Key.character("q"), .escape])
    func clearsBeforeLeaving(key: Key) async {
        let (sut, viewModel, _) = await makeSUT()
        _ = await sut.handle(.char("/"))
        _ = await sut.handle(.char("d"))
        _ = await sut.handle(.key(.enter))

        #expect(await sut.handle(.key(key)) == .handled)
        #expect(viewModel.query == "")
        #expect(await sut.handle(.key(key)) == .ignored)
    }

    @Test("/ on a kept filter opens it selected: typing replaces it, an arrow edits it")
    func reopenSelected() async {
        let (sut, viewModel, _) = await makeSUT()
        _ = await sut.handle(.char("/"))
        for character in "nunez" { _ = await sut.handle(.char(character)) }
        _ = await sut.handle(.key(.enter))

        _ = await sut.handle(.char("/"))
        _ = await sut.handle(.char("a"))
        #expect(viewModel.query == "a")

        _ = await sut.handle(.key(.enter))
        _ = await sut.handle(.char("/"))
        _ = await sut.handle(.key(.left))
        _ = await sut.handle(.char("z"))
        #expect(viewModel.query == "za")
    }

    @Test("typing never waits for results; a key that acts on the rows waits until they are the rows of what was typed")
    func acceptsWhileSearching() async {
        let gate = Gate()
        let (sut, _, store) = await makeSUT()
        await store.setGate(gate)

        _ = await sut.handle(.char("/"))
        _ = await sut.handle(.char("d"))

        #expect(sut.accepts(.char("o")))
        #expect(sut.accepts(.key(.backspace)))
        #expect(sut.accepts(.key(.enter)))
        #expect(!sut.accepts(.key(.down)))
        _ = await sut.handle(.key(.enter))
        #expect(!sut.accepts(.char("f")))
        #expect(!sut.accepts(.key(.enter)))
        await gate.open()
        await sut.settle()
        #expect(sut.accepts(.char("f")))
    }

    @Test("while the rows of what was typed are on their way, the count of the query before is not shown")
    func noStaleCount() async {
        let gate = Gate()
        let (sut, _, store) = await makeSUT()
        await store.setGate(gate)

        _ = await sut.handle(.char("/"))
        _ = await sut.handle(.char("d"))

        let line = draw(sut).lines[1]
        #expect(line.hasPrefix(" / d"))
        #expect(!line.contains("match"), "\(line)")
        await gate.open()
        await sut.settle()
        #expect(draw(sut).lines[1].hasSuffix("2 matches  1/2"))  // Docker, and Daniel Okafor's course
    }

    @Test("a query nothing matches says so, with its words")
    func noMatch() async {
        let (sut, _, _) = await makeSUT()
        _ = await sut.handle(.char("/"))
        for character in "zzz" { _ = await sut.handle(.char(character)) }
        await sut.settle()

        #expect(draw(sut).text.contains("No courses match \"zzz\""))
    }

    @Test("while searching, j k g G are letters of the query and ↑↓ move the rows")
    func lettersAreText() async {
        let (sut, viewModel, _) = await makeSUT()
        _ = await sut.handle(.char("/"))

        for character in "jkgG" { _ = await sut.handle(.char(character)) }

        #expect(viewModel.searchField.text == "jkgG")
    }

    // MARK: - Helpers

    private func makeSUT() async -> (CatalogListScreen, CatalogListViewModel, InMemoryStore) {
        let store = InMemoryStore(courses: Self.courses)
        let viewModel = CatalogListViewModel(courses: store, learner: LearnerStub().learner)
        let screen = CatalogListScreen(viewModel: viewModel, onCourseSelected: { _ in })
        leaks.track(viewModel)
        leaks.track(screen)
        screen.appear()
        await screen.settle()
        return (screen, viewModel, store)
    }
}
