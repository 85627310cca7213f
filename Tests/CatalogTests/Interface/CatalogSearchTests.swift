@testable import Catalog
import SharedKernel
import Testing
import TestSupport
import TerminalUI

@Suite("Catalog search")
@MainActor
struct CatalogSearchTests {
    static let courses = [
        Course.fixture(id: "a", title: "Swift Fundamentals", instructor: "María García"),
        .fixture(id: "b", title: "Swift Concurrency", instructor: "María García", tags: ["async"]),
        .fixture(id: "c", title: "Guitar: First Steps", instructor: "José Núñez", tags: ["music"]),
    ]

    @Test("typing filters live; Enter keeps the filter; Esc clears it")
    func typeKeepClear() async {
        let (screen, viewModel, _) = makeSUT()
        await viewModel.load()

        _ = screen.handle(.char("/"))
        #expect(screen.isCapturingText)
        for character in "nunez" { _ = screen.handle(.char(character)) }
        await settle(viewModel) { $0.entries.count == 1 }
        #expect(viewModel.entries.map(\.course.id) == ["c"])
        let editing = draw(screen)
        #expect(editing.lines[1].hasPrefix(" / nunez"))
        #expect(editing.cursor?.x == 8)
        #expect(editing.cursor?.y == 1)

        _ = screen.handle(.key(.enter))
        #expect(!screen.isCapturingText)
        #expect(viewModel.query == "nunez")
        #expect(draw(screen).cursor == nil)

        _ = screen.handle(.key(.escape))
        await settle(viewModel) { $0.entries.count == 3 }
        #expect(viewModel.query == "")
        #expect(draw(screen).lines[1].hasPrefix(" Catalog  3 courses"))
    }

    @Test("no match says so with the query")
    func noMatch() async {
        let (screen, viewModel, _) = makeSUT()
        await viewModel.load()

        _ = screen.handle(.char("/"))
        for character in "zzz" { _ = screen.handle(.char(character)) }
        await settle(viewModel) { $0.state == .empty }

        let text = draw(screen).text
        #expect(text.contains("No courses match \"zzz\""))
        #expect(text.contains("Press Esc to clear the search"))
    }

    @Test("a newer keystroke supersedes an older query, even when the older answers last")
    func superseding() async {
        let repository = SlowFirstSearch(courses: Self.courses)
        let viewModel = CatalogListViewModel(
            loadCatalog: LoadCatalogUseCase(courses: repository, marks: .none),
            toggleFavourite: { _ in .success(true) }
        )
        await viewModel.load()
        viewModel.beginSearch()

        _ = viewModel.editSearch(.character("s"))
        let older = Task { await viewModel.rows.reload() }
        await repository.waitForSlowCall()
        _ = viewModel.editSearch(.character("w"))
        _ = viewModel.editSearch(.character("i"))
        _ = viewModel.editSearch(.character("f"))
        _ = viewModel.editSearch(.character("t"))
        _ = viewModel.editSearch(.character(" "))
        _ = viewModel.editSearch(.character("a"))
        _ = viewModel.editSearch(.character("s"))
        await viewModel.rows.reload()
        #expect(viewModel.entries.map(\.course.id) == ["b"])

        await repository.releaseSlowCall()
        await older.value

        #expect(viewModel.entries.map(\.course.id) == ["b"])
        #expect(await repository.queries == ["s", "swift as"])
    }

    // MARK: - Helpers

    private func makeSUT() -> (CatalogListScreen, CatalogListViewModel, CourseRepositorySpy) {
        let repository = CourseRepositorySpy.success(Self.courses)
        let viewModel = CatalogListViewModel(
            loadCatalog: LoadCatalogUseCase(courses: repository, marks: .none),
            toggleFavourite: { _ in .success(true) }
        )
        return (CatalogListScreen(viewModel: viewModel, onCourseSelected: { _ in }), viewModel, repository)
    }

    private func settle(_ viewModel: CatalogListViewModel, sourceLocation: SourceLocation = #_sourceLocation, until condition: (CatalogListViewModel) -> Bool) async {
        for _ in 0..<10_000 {
            if condition(viewModel) { return }
            await Task.yield()
        }
        Issue.record("the list never settled", sourceLocation: sourceLocation)
    }

    private func draw(_ screen: CatalogListScreen) -> TextCanvas {
        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))
        return canvas
    }
}

/// A catalog whose first search is slow: it answers only when the test releases it.
private actor SlowFirstSearch: CourseRepository {
    let courses: [Course]
    private(set) var queries: [String] = []
    private let started = Gate()
    private let release = Gate()

    init(courses: [Course]) {
        self.courses = courses
    }

    func waitForSlowCall() async { await started.wait() }
    func releaseSlowCall() async { await release.open() }

    /// The first page asked for with a query waits until the test releases it.
    func page(matching query: String, at position: CatalogPosition, limit: Int) async throws(AppError) -> [CatalogRow] {
        if !query.isEmpty {
            queries.append(query)
            if queries.count == 1 {
                await started.open()
                await release.wait()
            }
        }
        return BruteForceSearch.page(courses, query: query, at: position, limit: limit)
    }

    func count(matching query: String) async throws(AppError) -> CatalogCount {
        .exactly(BruteForceSearch.matches(courses, query: query).count)
    }

    func course(id: CourseID) async throws(AppError) -> Course {
        guard let course = courses.first(where: { $0.id == id }) else { throw .courseNotFound(id) }
        return course
    }
}
