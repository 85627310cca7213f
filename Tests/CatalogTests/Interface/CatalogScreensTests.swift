@testable import Catalog
import Foundation
import SharedKernel
import Testing
import TestSupport
import TerminalUI

@Suite("Catalog screens drawn at 80×24")
@MainActor
struct CatalogScreensTests {
    static let size = Size(width: 80, height: 24)
    static let area = Rect(x: 0, y: 1, width: 80, height: 22)

    @Test("the loaded list shows columns, rows in order and the selection")
    func loadedList() async {
        let courses = [
            Course.fixture(id: "a", title: "Agile and Scrum", instructor: "Daniel Okafor", level: .beginner, durationMinutes: 130, price: Price(minorUnits: 2500, currency: "EUR")),
            Course.fixture(id: "b", title: "Building a Design System", instructor: "Søren Lindqvist", level: .advanced, durationMinutes: 260, price: Price(minorUnits: 0, currency: "EUR")),
        ]
        let (screen, viewModel) = makeListSUT(.success(courses))
        await viewModel.load()
        _ = screen.handle(.key(.down))

        let canvas = draw(screen)

        #expect(canvas.lines[1] == " Catalog  2 courses                                                         2/2")
        #expect(canvas.lines[2] == "    Title                    Instructor       Level         Duration      Price")
        #expect(canvas.lines[3] == "    Agile and Scrum          Daniel Okafor    Beginner      2h 10min  25.00 EUR")
        #expect(canvas.lines[4] == "    Building a Design Syst…  Søren Lindqvist  Advanced      4h 20min       Free")
        #expect(canvas.style(atX: 10, y: 4) == .selection)
        #expect(canvas.style(atX: 10, y: 3) == .normal)
    }

    @Test("loading shows a spinner and Loading…")
    func loading() async {
        let gate = Gate()
        let (screen, viewModel) = makeListSUT(.success([.fixture()]), gate: gate)
        let load = Task { await viewModel.load() }
        await waitUntil { viewModel.state == .loading }

        let canvas = draw(screen)

        #expect(canvas.text.contains("⠋ Loading…"))
        #expect(screen.isAnimating)
        await gate.open()
        await load.value
    }

    @Test("an empty catalog says so and what to do next")
    func empty() async {
        let (screen, viewModel) = makeListSUT(.success([]))
        await viewModel.load()

        let text = draw(screen).text

        #expect(text.contains("The catalog has no courses yet"))
        #expect(text.contains("tui import-courses FILE"))
    }

    @Test("an error shows the message and Press r to retry; r retries")
    func error() async throws {
        let (screen, viewModel) = makeListSUT(.failure(.connectivity))
        await viewModel.load()

        let text = draw(screen).text

        #expect(text.contains(AppError.connectivity.userMessage))
        #expect(text.contains("Press r to retry"))
        #expect(screen.keyHints == [KeyHint("r", "retry")])
        #expect(screen.handle(.char("r")) == .handled)
    }

    @Test("a course of 10 hours and more, priced 100 or more, shows both whole and aligned", arguments: [80, 60])
    func longDurationAndPrice(width: Int) async {
        let courses = [
            Course.fixture(id: "a", title: "Long", level: .intermediate, durationMinutes: 630, price: Price(minorUnits: 11_970, currency: "EUR")),
            Course.fixture(id: "b", title: "Short", durationMinutes: 45, price: Price(minorUnits: 0, currency: "EUR")),
        ]
        let (screen, viewModel) = makeListSUT(.success(courses))
        await viewModel.load()

        var canvas = TextCanvas(size: Size(width: width, height: 24))
        screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: width, height: 22)))
        let lines = canvas.lines

        #expect(lines[3].hasSuffix(" 10h 30min 119.70 EUR"), "\(lines[3])")
        #expect(lines[4].hasSuffix("     45min       Free"), "\(lines[4])")
        #expect(lines[2].hasSuffix(" Duration      Price"), "\(lines[2])")
        #expect(Set(lines[2...4].map(\.displayWidth)) == [width - 1])
    }

    @Test("a long title and a CJK title keep the columns aligned")
    func alignment() async {
        let courses = [
            Course.fixture(id: "a", title: "A Very Long Course Title That Certainly Does Not Fit In Its Column", instructor: "Ann"),
            Course.fixture(id: "b", title: "日本語入門: Japanese for Beginners", instructor: "王芳 (Wang Fang)"),
            Course.fixture(id: "c", title: "Short", instructor: "Bo"),
        ]
        let (screen, viewModel) = makeListSUT(.success(courses))
        await viewModel.load()

        let lines = draw(screen).lines

        let rows = lines[3...5]
        #expect(Set(rows.map(\.displayWidth)) == [79])
        let levelColumns = rows.map { row in row.prefixWidth(upTo: "Beginner") }
        #expect(Set(levelColumns).count == 1)
        #expect(lines[3].hasPrefix("    A Very Long Course Tit…  Ann"))
        // Catalog order puts the CJK title after the Latin ones.
        #expect(lines[5].hasPrefix("    日本語入門: Japanese f…  王芳 (Wang Fan…  Beginner"))
    }

    @Test("Enter reports the selected course; list keys are used, others are not")
    func enterSelects() async {
        var selected: [CourseID] = []
        let viewModel = CatalogListViewModel(loadCatalog: LoadCatalogUseCase(courses: CourseRepositorySpy.success([.fixture(id: "a"), .fixture(id: "b")]), marks: .none), toggleFavourite: { _ in .success(true) })
        let screen = CatalogListScreen(viewModel: viewModel) { selected.append($0) }
        await viewModel.load()
        _ = draw(screen)

        #expect(screen.handle(.key(.end)) == .handled)
        #expect(screen.handle(.key(.enter)) == .handled)
        #expect(screen.handle(.char("x")) == .ignored)
        #expect(selected == ["b"])
    }

    @Test("the detail shows the facts, the prerequisite's title and the wrapped description")
    func detail() async {
        let basics = Course.fixture(id: "swift-101", title: "Swift Fundamentals")
        let course = Course.fixture(
            id: "swift-concurrency", title: "Swift Concurrency in Practice", instructor: "María García",
            category: "Swift", level: .intermediate, durationMinutes: 150, capacity: 40, enrolledCount: 12,
            prerequisiteID: "swift-101",
            description: "Structured concurrency, actors and Sendable, from first task to production. You will migrate a callback-based networking layer to async/await."
        )
        let viewModel = CourseDetailViewModel(courseID: course.id, loadDetail: LoadCourseDetailUseCase(courses: CourseRepositorySpy.success([basics, course]), marks: .none), enroll: { _ in .failure(.notSignedIn) })
        let screen = CourseDetailScreen(viewModel: viewModel, onBack: {})
        await viewModel.load()

        let lines = draw(screen).lines

        #expect(Array(lines[1...13]) == [
            "  Swift Concurrency in Practice",
            "  by María García",
            "",
            "  Category      Swift",
            "  Level         Intermediate",
            "  Duration      2h 30min",
            "  Price         35.99 EUR",
            "  Seats left    28 of 40",
            "  Prerequisite  Swift Fundamentals",
            "",
            "  Structured concurrency, actors and Sendable, from first task to production.",
            "  You will migrate a callback-based networking layer to async/await.",
            "",
        ])
    }

    @Test("a full, inactive course says so on its detail")
    func fullInactiveDetail() async {
        let course = Course.fixture(capacity: 10, enrolledCount: 10, isActive: false)
        let viewModel = CourseDetailViewModel(courseID: course.id, loadDetail: LoadCourseDetailUseCase(courses: CourseRepositorySpy.success([course]), marks: .none), enroll: { _ in .failure(.notSignedIn) })
        let screen = CourseDetailScreen(viewModel: viewModel, onBack: {})
        await viewModel.load()

        let text = draw(screen).text

        #expect(text.contains("Seats left    None — the course is full"))
        #expect(text.contains("Status        Not open for enrollment"))
    }

    @Test("Backspace on the detail goes back")
    func backspace() {
        var backs = 0
        let viewModel = CourseDetailViewModel(courseID: "x", loadDetail: LoadCourseDetailUseCase(courses: CourseRepositorySpy.success([]), marks: .none), enroll: { _ in .failure(.notSignedIn) })
        let screen = CourseDetailScreen(viewModel: viewModel) { backs += 1 }

        #expect(screen.handle(.key(.backspace)) == .handled)
        #expect(backs == 1)
    }

    @Test("an unknown course shows the error and a retry")
    func detailError() async {
        let viewModel = CourseDetailViewModel(courseID: "gone", loadDetail: LoadCourseDetailUseCase(courses: CourseRepositorySpy.success([]), marks: .none), enroll: { _ in .failure(.notSignedIn) })
        let screen = CourseDetailScreen(viewModel: viewModel, onBack: {})
        await viewModel.load()

        let text = draw(screen).text

        #expect(text.contains(AppError.courseNotFound("gone").userMessage))
        #expect(text.contains("Press r to retry"))
    }

    // MARK: - Helpers

    private func makeListSUT(_ result: Result<[Course], AppError>, gate: Gate? = nil) -> (CatalogListScreen, CatalogListViewModel) {
        let viewModel = CatalogListViewModel(loadCatalog: LoadCatalogUseCase(courses: CourseRepositorySpy(result: result, gate: gate), marks: .none), toggleFavourite: { _ in .success(true) })
        return (CatalogListScreen(viewModel: viewModel, onCourseSelected: { _ in }), viewModel)
    }

    private func draw(_ screen: some Screen) -> TextCanvas {
        var canvas = TextCanvas(size: Self.size)
        screen.draw(in: &canvas, frame: Frame(area: Self.area, tick: 0))
        return canvas
    }
}

extension String {
    /// Display columns before the first occurrence of `needle`.
    func prefixWidth(upTo needle: String) -> Int? {
        range(of: needle).map { self[..<$0.lowerBound].displayWidth }
    }
}

@Suite("Favourites in the catalog")
@MainActor
struct CatalogFavouriteTests {
    @Test("f on a row marks it ★ at once and says so; ✓ shares the gutter")
    func toggleFromList() async {
        let courses = [Course.fixture(id: "a", title: "Alpha"), .fixture(id: "b", title: "Beta")]
        let favourites = FavouritesRepositorySpy(courses: courses)
        let enrollments = EnrollmentRepositorySpy(courses: courses, enrollments: [.fixture(courseID: "a")])
        let marks = CourseMarks(session: SessionRepositoryStub.demo, enrollments: enrollments, favourites: favourites)
        let viewModel = CatalogListViewModel(loadCatalog: LoadCatalogUseCase(courses: CourseRepositorySpy.success(courses), marks: marks)) { id in
            do throws(AppError) {
                return .success(try await favourites.toggle(userID: User.demo.id, courseID: id))
            } catch {
                return .failure(error)
            }
        }
        let screen = CatalogListScreen(viewModel: viewModel, onCourseSelected: { _ in })
        await viewModel.load()

        await viewModel.toggleFavourite(courses[0])

        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))
        #expect(canvas.lines[3].hasPrefix(" ★✓ Alpha"))
        #expect(canvas.lines[4].hasPrefix("    Beta"))
        #expect(screen.statusMessage == StatusMessage("Added Alpha to favourites", kind: .success))
        #expect(screen.keyHints.contains(KeyHint("f", "favourite")))
    }

    @Test("f j f typed in one burst toggles the two rows the keys were pressed on")
    func burst() async throws {
        let courses = [Course.fixture(id: "a", title: "Alpha"), .fixture(id: "b", title: "Beta")]
        let favourites = FavouritesRepositorySpy(courses: courses)
        let marks = CourseMarks(session: SessionRepositoryStub.demo, enrollments: EnrollmentRepositorySpy(), favourites: favourites)
        let viewModel = CatalogListViewModel(loadCatalog: LoadCatalogUseCase(courses: CourseRepositorySpy.success(courses), marks: marks)) { id in
            do throws(AppError) {
                return .success(try await favourites.toggle(userID: User.demo.id, courseID: id))
            } catch {
                return .failure(error)
            }
        }
        let screen = CatalogListScreen(viewModel: viewModel, onCourseSelected: { _ in })
        await viewModel.load()

        for event in [InputEvent.char("f"), .char("j"), .char("f")] {
            _ = screen.handle(event)
        }
        for _ in 0..<10_000 where await favourites.messages.filter({ if case .toggle = $0 { true } else { false } }).count < 2 {
            await Task.yield()
        }

        #expect(try await favourites.favouriteIDs(userID: User.demo.id) == ["a", "b"])
    }
}
