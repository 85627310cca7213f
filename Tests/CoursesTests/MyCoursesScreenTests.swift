import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import Courses

@Suite("My courses")
@MainActor
final class MyCoursesScreenTests {
    /// What `makeSUT` made: each must be gone once the test is.
    private let leaks = LeakTracker()

    deinit {
        #expect(leaks.alive == [], "kept alive after the test")
    }

    static let swift = Course.fixture(id: "swift", title: "Swift Fundamentals", lessonCount: 8)
    static let docker = Course.fixture(id: "docker", title: "Docker Essentials", lessonCount: 4)
    static let linux = Course.fixture(id: "linux", title: "The Linux Command Line", lessonCount: 5)

    @Test("progress, status (Not started, In progress, Completed with its date) and enrolment date; whole titles at 80 columns")
    func table() async {
        let (sut, _, _, _) = await makeSUT()

        let lines = draw(sut).lines

        #expect(
            Array(lines[1...5]) == [
                " My courses  3 enrolled                                                     1/3",
                "    Title                   Progress         Status                Enrolled",
                "    Swift Fundamentals      ███░░░░░░░  37%  In progress           22 Nov 2025",
                "    Docker Essentials       ░░░░░░░░░░   0%  Not started           22 Nov 2025",
                "    The Linux Command Line  ██████████ 100%  Completed 2 Jan 2026  22 Nov 2025",
            ])
    }

    @Test("at 60 columns the enrolment date goes first, then the status drops its date")
    func narrow() async {
        let (sut, _, _, _) = await makeSUT()

        let lines = draw(sut, width: 60).lines

        #expect(
            Array(lines[2...5]) == [
                "    Title                   Progress         Status",
                "    Swift Fundamentals      ███░░░░░░░  37%  In progress",
                "    Docker Essentials       ░░░░░░░░░░   0%  Not started",
                "    The Linux Command Line  ██████████ 100%  Completed",
            ])
    }

    @Test("nothing enrolled says so and what to do next")
    func empty() async {
        let (sut, _, _, _) = await makeSUT(enrollments: [])

        #expect(draw(sut).text.contains(MyCoursesScreen.emptyText.english))
        #expect(sut.availableKeys.map(\.key) == ["r"])
    }

    @Test("u asks with the course's title and says the progress is kept, (y/n) always visible; y takes it off the list at once")
    func unenroll() async {
        let (sut, viewModel, store, reports) = await makeSUT()

        _ = await sut.handle(.char("u"))
        #expect(sut.statusMessage?.text == "Unenroll from Swift Fundamentals? Your progress (3 of 8 lessons) is kept. (y/n)")
        #expect(sut.isCapturingText)
        #expect(sut.availableKeys.map(\.key) == ["y", "n"])
        _ = await sut.handle(.char("y"))
        await sut.settle()

        #expect(viewModel.courses.map(\.id) == ["docker", "linux"])
        #expect(reports.messages == [.success("Unenrolled from Swift Fundamentals")])
        #expect(await store.storedEnrollment(User.demo.id, "swift")?.status == .dropped)
    }

    @Test(
        "the question says how much is kept, from the lessons done as shown",
        arguments: [
            (0, "Unenroll from Swift Fundamentals? Your progress (3 of 8 lessons) is kept. (y/n)"),
            (1, "Unenroll from Docker Essentials? (y/n)"),
        ])
    func unenrollQuestion(row: Int, question: String) async {
        let (sut, _, _, _) = await makeSUT()
        for _ in 0..<row { _ = await sut.handle(.key(.down)) }

        _ = await sut.handle(.char("u"))

        #expect(sut.statusMessage?.text.english == question)
    }

    @Test("a completed course left stays below, dim, as history: counted apart, Enter opens it, u says why not")
    func history() async {
        var opened: [CourseID] = []
        var left = Self.enrolled
        left[0].status = .dropped
        let (sut, viewModel, _, _) = await makeSUT(enrollments: left) { opened.append($0) }

        let lines = draw(sut).lines
        let narrow = draw(sut, width: 60).lines
        _ = await sut.handle(.key(.end))
        let unenroll = sut.availability(of: MyCoursesScreen.Keys.unenroll)
        let footer = sut.availableKeys.map(\.key)
        _ = await sut.handle(.key(.enter))

        #expect(
            Array(lines[1...5]) == [
                " My courses  2 enrolled · 1 left                                            1/3",
                "    Title                   Progress         Status",
                "    Swift Fundamentals      ███░░░░░░░  37%  In progress",
                "    Docker Essentials       ░░░░░░░░░░   0%  Not started",
                "    The Linux Command Line  ██████████ 100%  Completed · not enrolled",
            ])
        #expect(
            draw(sut, width: 100).lines[5]
                == "    The Linux Command Line  ██████████ 100%  Completed 2 Jan 2026 · not enrolled  22 Nov 2025")
        #expect(narrow[5] == "    The Linux Command Line  ██████████ 100%  Not enrolled")
        #expect(viewModel.courses.map(\.id) == ["swift", "docker"])
        #expect(unenroll == .unavailable(reason: "You are not enrolled in The Linux Command Line"))
        #expect(!footer.contains("u"))
        #expect(opened == ["linux"])
    }

    @Test("u y u y in one burst unenrolls the first two courses, each question about the row then selected")
    func unenrollBurst() async {
        let gate = Gate()
        let (sut, viewModel, store, _) = await makeSUT()
        await store.setGate(gate)

        for key in "uyuy" { _ = await sut.handle(.char(key)) }

        #expect(viewModel.courses.map(\.id) == ["linux"])
        await gate.open()
        await sut.settle()
        #expect(await store.storedEnrollment(User.demo.id, "swift")?.status == .dropped)
        #expect(await store.storedEnrollment(User.demo.id, "docker")?.status == .dropped)
    }

    @Test("keys wait for the first load; Enter continues a course under way at its first lesson not done; o opens its page")
    func waitsThenOpens() async {
        let gate = Gate()
        var opened: [CourseID] = []
        var lessons: [String] = []
        let (sut, _, store, _) = await makeSUT(
            load: false, onCourseSelected: { opened.append($0) }, onOpenLesson: { lessons.append("\($0) \($1)") })
        await store.setGate(gate)

        sut.appear()
        await gate.waitForArrivals(1)
        #expect(!sut.accepts(.key(.down)))
        #expect(draw(sut).text.contains("Loading…"))
        await gate.open()
        await sut.settle()
        #expect(sut.accepts(.key(.down)))
        _ = await sut.handle(.key(.down))
        _ = await sut.handle(.key(.enter))
        #expect(lessons == ["docker 1"], "not started: its first lesson")
        _ = await sut.handle(.key(.character("o")))
        #expect(opened == ["docker"])
        _ = await sut.handle(.key(.up))
        _ = await sut.handle(.key(.enter))
        #expect(lessons == ["docker 1", "swift 4"], "three lessons done: the fourth")
        _ = await sut.handle(.key(.down))
        _ = await sut.handle(.key(.down))
        _ = await sut.handle(.key(.enter))
        #expect(opened == ["docker", "linux"], "a completed course opens its page")
    }

    @Test("shown again, the list stays with a spinner while it is read again, never an empty state")
    func refreshKeepsRows() async {
        let gate = Gate()
        let (sut, _, store, _) = await makeSUT()
        await store.setGate(gate)
        let arrived = await gate.arrivals

        sut.appear()
        await gate.waitForArrivals(arrived + 1)
        let lines = draw(sut).lines

        #expect(lines[1].hasPrefix(" My courses  3 enrolled ⠋"))
        #expect(lines[3].hasPrefix("    Swift Fundamentals"))
        #expect(sut.isAnimating)
        await gate.open()
        await sut.settle()
    }

    @Test("a course enrolled elsewhere comes in above the selection, which stays on its course, untouched by any key")
    func liveRowKeepsSelection() async throws {
        let (sut, viewModel, store, _) = await makeSUT()
        let cloud = Course.fixture(id: "cloud", title: "Cloud Foundations", lessonCount: 6)
        await store.addCourses([cloud])
        #expect(viewModel.rows.selected?.id == "swift")

        _ = try await store.enroll(userID: User.demo.id, courseID: "cloud")
        await viewModel.model.storeChanged("cloud")

        #expect(viewModel.courses.map(\.id) == ["cloud", "swift", "docker", "linux"])
        #expect(viewModel.rows.selected?.id == "swift", "the selection follows its course")
        #expect(viewModel.rows.list.selectedIndex == 1)
        _ = await sut.handle(.key(.down))
        #expect(viewModel.rows.selected?.id == "docker", "and moves on from there")
    }

    @Test("the selected course left in another terminal: the row that took its place is selected, and keeps it when the course comes back")
    func returningRowDoesNotTakeTheHighlight() async throws {
        let (_, viewModel, store, _) = await makeSUT()
        #expect(viewModel.rows.selected?.id == "swift")

        _ = try await store.unenroll(userID: User.demo.id, courseID: "swift")
        await viewModel.model.storeChanged("swift")
        #expect(viewModel.rows.selected?.id == "docker", "the row that took its place")

        _ = try await store.enroll(userID: User.demo.id, courseID: "swift")
        await viewModel.model.storeChanged("swift")
        #expect(viewModel.courses.first?.id == "swift")
        #expect(viewModel.rows.selected?.id == "docker", "the course back does not take the highlight")
    }

    // MARK: - Helpers

    static let enrolled: [Enrollment] = [
        Enrollment(
            id: EnrollmentID(1), userID: User.demo.id, courseID: "linux", enrolledAt: day(2025, 11, 22, hour: 9),
            status: .completed, lessonsDone: [1, 2, 3, 4, 5], completedAt: day(2026, 1, 2)),
        Enrollment(id: EnrollmentID(2), userID: User.demo.id, courseID: "docker", enrolledAt: day(2025, 11, 22, hour: 10)),
        Enrollment(
            id: EnrollmentID(3), userID: User.demo.id, courseID: "swift", enrolledAt: day(2025, 11, 22, hour: 11), lessonsDone: [1, 2, 3]),
    ]

    static func day(_ year: Int, _ month: Int, _ day: Int, hour: Int = 12) -> Date {
        Calendar(identifier: .gregorian).date(from: DateComponents(timeZone: .current, year: year, month: month, day: day, hour: hour))!
    }

    private func makeSUT(
        enrollments: [Enrollment] = MyCoursesScreenTests.enrolled,
        load: Bool = true,
        onCourseSelected: @escaping @MainActor (CourseID) -> Void = { _ in },
        onOpenLesson: @escaping @MainActor (CourseID, Int) -> Void = { _, _ in }
    ) async -> (MyCoursesScreen, MyCoursesViewModel, InMemoryStore, Reports) {
        let store = InMemoryStore(courses: [Self.swift, Self.docker, Self.linux])
        for enrollment in enrollments { await store.addEnrollment(enrollment) }
        let reports = Reports()
        let feature = CoursesFeature(learner: User.demo.id, enrollments: store) { reports.messages.append($0) }
        let viewModel = MyCoursesViewModel(model: feature.model)
        let screen = MyCoursesScreen(viewModel: viewModel, onCourseSelected: onCourseSelected, onOpenLesson: onOpenLesson)
        leaks.track(feature.model)
        leaks.track(viewModel)
        leaks.track(screen)
        if load {
            screen.appear()
            await screen.settle()
        }
        return (screen, viewModel, store, reports)
    }
}

@MainActor
func draw(_ screen: some Screen, width: Int = 80, height: Int = 24) -> TextCanvas {
    var canvas = TextCanvas(size: Size(width: width, height: height))
    screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: width, height: height - 2), tick: 0))
    return canvas
}
