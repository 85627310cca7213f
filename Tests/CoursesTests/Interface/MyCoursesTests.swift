@testable import Courses
import Foundation
import SharedKernel
import Testing
import TestSupport
import TerminalUI

@Suite("My courses")
@MainActor
struct MyCoursesTests {
    static let course = Course.fixture(id: "swift-101", title: "Swift Concurrency in Practice")

    @Test("idle → loading → loaded with the enrolled courses")
    func loads() async {
        let (sut, _, _) = makeSUT(enrollments: [.fixture(courseID: "swift-101")])
        #expect(sut.state == .idle)

        await sut.load()

        #expect(sut.courses.map(\.course.title) == ["Swift Concurrency in Practice"])
    }

    @Test("no enrollments → empty")
    func empty() async {
        let (sut, _, _) = makeSUT(enrollments: [])

        await sut.load()

        #expect(sut.state == .empty)
    }

    @Test("a failure → error; retry loads again")
    func errorAndRetry() async {
        let (sut, repository, _) = makeSUT(enrollments: [.fixture()], failure: .connectivity)

        await sut.load()
        #expect(sut.state == .error(message: AppError.connectivity.userMessage))
        await repository.setFailure(nil)
        await sut.load()

        #expect(sut.courses.count == 1)
    }

    @Test("a second load while one is in flight is ignored")
    func duplicateLoad() async {
        let (sut, repository, _) = makeSUT(enrollments: [])

        async let first: Void = sut.load()
        async let second: Void = sut.load()
        _ = await (first, second)

        #expect(await repository.messages == [.enrolledCourses(userID: User.demo.id)])
    }

    @Test("u asks first; n keeps the course, y drops it and shows the empty state")
    func unenroll() async {
        let (sut, repository, screen) = makeSUT(enrollments: [.fixture(courseID: "swift-101")])
        await sut.load()

        #expect(screen.handle(.char("u")) == .handled)
        #expect(screen.statusMessage == StatusMessage("Unenroll from Swift Concurrency in Practice? (y/n)"))
        #expect(screen.isCapturingText)
        #expect(screen.handle(.char("q")) == .handled)
        #expect(screen.handle(.char("n")) == .handled)
        #expect(sut.pendingUnenroll == nil)
        #expect(await repository.writes == [])

        _ = screen.handle(.char("u"))
        await sut.confirmUnenroll()

        #expect(await repository.writes == [.unenroll(userID: User.demo.id, courseID: "swift-101")])
        #expect(sut.state == .empty)
        #expect(screen.statusMessage == StatusMessage("Unenrolled from Swift Concurrency in Practice", kind: .success))
    }

    @Test("the list shows title, progress, date and status")
    func loadedScreen() async {
        let (sut, _, screen) = makeSUT(enrollments: [.fixture(courseID: "swift-101", progress: 40)])
        await sut.load()

        let lines = draw(screen).lines

        #expect(lines[1].hasPrefix(" My courses  1 enrolled"))
        #expect(lines[2] == "    Title                             Progress         Enrolled     Status")
        #expect(lines[3] == "    Swift Concurrency in Practice     ████░░░░░░  40%  22 Nov 2025  In progress")
    }

    @Test("the empty state says what to do next")
    func emptyScreen() async {
        let (sut, _, screen) = makeSUT(enrollments: [])
        await sut.load()

        let text = draw(screen).text

        #expect(text.contains("You are not enrolled in any course yet — press 1 to browse the catalog"))
    }

    @Test("the error state offers a retry")
    func errorScreen() async {
        let (sut, _, screen) = makeSUT(enrollments: [], failure: .connectivity)
        await sut.load()

        let text = draw(screen).text

        #expect(text.contains("Press r to retry"))
        #expect(screen.keyHints == [KeyHint("r", "retry")])
    }

    @Test("Enter opens the selected course")
    func enterOpens() async {
        var opened: [CourseID] = []
        let repository = EnrollmentRepositorySpy(courses: [Self.course], enrollments: [.fixture(courseID: "swift-101")])
        let viewModel = MyCoursesViewModel(
            loadMyCourses: LoadMyCoursesUseCase(session: SessionRepositoryStub.demo, enrollments: repository),
            unenroll: UnenrollUseCase(session: SessionRepositoryStub.demo, enrollments: repository)
        )
        let screen = MyCoursesScreen(viewModel: viewModel) { opened.append($0) }
        await viewModel.load()

        _ = screen.handle(.key(.enter))

        #expect(opened == ["swift-101"])
    }

    // MARK: - Helpers

    private func makeSUT(enrollments: [Enrollment], failure: AppError? = nil) -> (MyCoursesViewModel, EnrollmentRepositorySpy, MyCoursesScreen) {
        let repository = EnrollmentRepositorySpy(courses: [Self.course], enrollments: enrollments, failure: failure)
        let viewModel = MyCoursesViewModel(
            loadMyCourses: LoadMyCoursesUseCase(session: SessionRepositoryStub.demo, enrollments: repository),
            unenroll: UnenrollUseCase(session: SessionRepositoryStub.demo, enrollments: repository)
        )
        return (viewModel, repository, MyCoursesScreen(viewModel: viewModel, onCourseSelected: { _ in }))
    }

    private func draw(_ screen: MyCoursesScreen) -> TextCanvas {
        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))
        return canvas
    }
}
