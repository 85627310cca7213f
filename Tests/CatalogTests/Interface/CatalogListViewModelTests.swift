@testable import Catalog
import SharedKernel
import Testing
import TestSupport
import TerminalUI

@Suite("Catalog list view-model")
@MainActor
struct CatalogListViewModelTests {
    @Test("starts idle")
    func startsIdle() {
        let (sut, _) = makeSUT(.success([]))

        #expect(sut.state == .idle)
    }

    @Test("idle → loading → loaded")
    func loads() async {
        let gate = Gate()
        let courses = [Course.fixture(id: "a", title: "A")]
        let (sut, _) = makeSUT(.success(courses), gate: gate)

        let load = Task { await sut.load() }
        await waitUntil { sut.state == .loading }
        await gate.open()
        await load.value

        #expect(sut.state == .loaded(courses.map { CatalogEntry(course: $0, isEnrolled: false) }))
    }

    @Test("no courses → empty")
    func empty() async {
        let (sut, _) = makeSUT(.success([]))

        await sut.load()

        #expect(sut.state == .empty)
    }

    @Test("a failure → error with the user message")
    func error() async {
        let (sut, _) = makeSUT(.failure(.connectivity))

        await sut.load()

        #expect(sut.state == .error(message: AppError.connectivity.userMessage))
    }

    @Test("retry after an error loads again")
    func retry() async {
        let (sut, repository) = makeSUT(.failure(.connectivity))
        await sut.load()
        await repository.setResult(.success([.fixture()]))

        await sut.retry()

        #expect(sut.entries.map(\.course) == [.fixture()])
        #expect(await repository.pageRequests == 2)
    }

    @Test("a second load while one is in flight is ignored")
    func duplicateLoadIgnored() async {
        let gate = Gate()
        let (sut, repository) = makeSUT(.success([.fixture()]), gate: gate)

        let first = Task { await sut.load() }
        await waitUntil { sut.state == .loading }
        await sut.load()
        await gate.open()
        await first.value

        #expect(await repository.pageRequests == 1)
        #expect(sut.entries.map(\.course) == [.fixture()])
    }

    @Test("a reload keeps the selected course selected")
    func reloadKeepsSelection() async {
        let courses = (0..<5).map { Course.fixture(id: CourseID("c\($0)"), title: "Course \($0)") }
        let (sut, repository) = makeSUT(.success(courses))
        await sut.load()
        _ = sut.moveSelection(.down, pageSize: 10)
        _ = sut.moveSelection(.down, pageSize: 10)
        await repository.setResult(.success(Array(courses.dropFirst())))

        await sut.load()

        #expect(sut.selectedCourse?.id == "c2")
        #expect(sut.list.selectedIndex == 1)
    }

    @Test("keys pressed during a silent refresh are not undone when it lands")
    func refreshKeepsNewerSelection() async {
        let courses = (0..<5).map { Course.fixture(id: CourseID("c\($0)"), title: "Course \($0)") }
        let (sut, repository) = makeSUT(.success(courses))
        await sut.load()
        let gate = Gate()
        await repository.setGate(gate)

        let refresh = Task { await sut.refresh() }
        for _ in 0..<10_000 where await repository.messages.count < 2 { await Task.yield() }
        _ = sut.moveSelection(.end, pageSize: 10)
        await gate.open()
        await refresh.value

        #expect(sut.selectedCourse?.id == "c4")
        #expect(sut.state == .loaded(courses.map { CatalogEntry(course: $0, isEnrolled: false) }))
    }

    // MARK: - Helpers

    private func makeSUT(_ result: Result<[Course], AppError>, gate: Gate? = nil) -> (CatalogListViewModel, CourseRepositorySpy) {
        let repository = CourseRepositorySpy(result: result, gate: gate)
        return (CatalogListViewModel(loadCatalog: LoadCatalogUseCase(courses: repository, marks: .none), toggleFavourite: { _ in .success(true) }), repository)
    }
}

/// Lets other tasks run until `condition` holds (bounded, so a broken test fails instead of hanging).
@MainActor
func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
    for _ in 0..<10_000 {
        if condition() { return }
        await Task.yield()
    }
    Issue.record("condition never became true", sourceLocation: sourceLocation)
}
