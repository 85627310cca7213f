import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import Catalog

/// The course page's keys for joining, leaving and marking lessons (`e`, `u`, `Space`), with
/// the learner's answers: part of the suite "Course page".
extension CourseDetailTests {
    @Test("enrolled: progress shows, the first lesson not done is selected, Space marks it and selects the next")
    func lessons() async {
        let learner = LearnerStub()
        learner.completed = ["swift-101"]
        learner.enrollments = ["swift-concurrency": .fixture(courseID: "swift-concurrency", lessonsDone: [1])]
        let (sut, viewModel, _) = await makeSUT(learner: learner)

        #expect(viewModel.selectedLesson == 1)
        #expect(draw(sut).text.contains("Progress      1 of 3 lessons · 33%"))
        _ = await sut.handle(.char(" "))
        await sut.settle()

        #expect(learner.writes == [.setLesson(2, "swift-concurrency", done: true)])
        #expect(viewModel.selectedLesson == 2)
        #expect(learner.reported == [.success("Lesson done: Tasks and cancellation")])
        let lines = draw(sut).lines
        #expect(lines.contains { $0.hasPrefix("  ✓ 2. Tasks and cancellation") })
        _ = await sut.handle(.key(.up))
        _ = await sut.handle(.char(" "))
        await sut.settle()
        #expect(learner.writes.last == .setLesson(2, "swift-concurrency", done: false))
        #expect(viewModel.selectedLesson == 1, "marking one not done stays on it")
    }

    @Test("Space Space while the marks cannot be saved: both undone, and the selection back on the first of them")
    func failedMarks() async {
        let learner = LearnerStub()
        learner.completed = ["swift-101"]
        learner.enrollments = ["swift-concurrency": .fixture(courseID: "swift-concurrency", lessonsDone: [1])]
        learner.lessonFailure = "Cannot reach edugo.example:8080"
        let gate = Gate()
        learner.gate = gate
        let (sut, viewModel, _) = await makeSUT(learner: learner)

        _ = await sut.handle(.char(" "))
        _ = await sut.handle(.char(" "))
        #expect(viewModel.selectedLesson == 2, "each Space acts on the next lesson while the marks are saving")
        await gate.open()
        await sut.settle()

        #expect(learner.writes == [.setLesson(2, "swift-concurrency", done: true), .setLesson(3, "swift-concurrency", done: true)])
        #expect(learner.enrollments["swift-concurrency"]?.lessonsDone == [1])
        #expect(viewModel.selectedLesson == 1, "the next Space is for lesson 2 again")
    }

    @Test(
        "the footer offers what acts now, in words for what it does now",
        arguments: [
            (nil, ["e enroll", "f favourite", "↑↓ scroll", "p prerequisite", "r reload"]),
            ("enrolled", ["Enter read", "u unenroll", "f favourite", "Space done", "↑↓ lesson", "p prerequisite", "r reload"]),
            ("on a done lesson", ["Enter read", "u unenroll", "f favourite", "Space not done", "↑↓ lesson", "p prerequisite", "r reload"]),
            ("full", ["f favourite", "↑↓ scroll", "p prerequisite", "r reload"]),
        ] as [(String?, [String])])
    func footer(state: String?, keys: [String]) async {
        let learner = LearnerStub()
        learner.completed = ["swift-101"]
        var course = Self.course
        if state == "enrolled" { learner.enrollments = [course.id: .fixture(courseID: course.id)] }
        if state == "on a done lesson" { learner.enrollments = [course.id: .fixture(courseID: course.id, lessonsDone: [1, 2, 3])] }
        if state == "full" { course.enrolledCount = 40 }
        let (sut, _, _) = await makeSUT(course: course, learner: learner)

        #expect(sut.availableKeys.map { "\($0.key) \($0.label)" } == keys)
    }

    @Test(
        "a key that cannot act now carries the reason: the rules' for e, not enrolled for u and Space, none for p",
        arguments: [
            (nil, "e", KeyAvailability.available),
            (nil, "u", .unavailable(reason: "You are not enrolled in Swift Concurrency in Practice")),
            (nil, "Space", .unavailable(reason: "Enroll in Swift Concurrency in Practice to mark its lessons done")),
            (nil, "p", .available),
            ("enrolled", "e", .unavailable(reason: "You are already enrolled in Swift Concurrency in Practice")),
            ("enrolled", "u", .available),
            ("locked", "e", .unavailable(reason: "Complete Swift Fundamentals first")),
            ("full", "e", .unavailable(reason: "Swift Concurrency in Practice is full")),
            ("closed", "e", .unavailable(reason: "Swift Concurrency in Practice is not open for enrollment")),
            ("without prerequisite", "p", .unavailable(reason: "Swift Concurrency in Practice has no prerequisite")),
        ] as [(String?, String, KeyAvailability)])
    func availability(state: String?, key: String, expected: KeyAvailability) async {
        let learner = LearnerStub()
        learner.completed = state == "locked" ? [] : ["swift-101"]
        var course = Self.course
        if state == "enrolled" { learner.enrollments = [course.id: .fixture(courseID: course.id)] }
        if state == "full" { course.enrolledCount = 40 }
        if state == "closed" { course.isActive = false }
        if state == "without prerequisite" { course.prerequisiteID = nil }
        let (sut, _, _) = await makeSUT(course: course, learner: learner)

        let declarations = sut.keys.filter { $0.key == key }
        let availability = declarations.map { sut.availability(of: $0) }.first { $0 != .dormant } ?? .dormant

        #expect(availability == expected)
    }

    @Test("a prerequisite no longer in the catalog blocks nothing: the page says no Locked, and e is offered")
    func prerequisiteGone() async {
        let learner = LearnerStub()
        let (sut, _, _) = await makeSUT(stored: [Self.course], learner: learner)

        let text = draw(sut).text

        #expect(!text.contains("Locked"))
        #expect(sut.availableKeys.contains(CourseDetailScreen.Keys.enroll))
    }

    @Test("u's question says what is kept: the lessons done as shown")
    func unenrollQuestion() async {
        let learner = LearnerStub()
        learner.enrollments = [Self.course.id: .fixture(courseID: Self.course.id, lessonsDone: [1, 2])]
        let (sut, _, _) = await makeSUT(learner: learner)

        _ = await sut.handle(.char("u"))

        #expect(sut.statusMessage?.text == "Unenroll from Swift Concurrency in Practice? Your progress (2 of 3 lessons) is kept. (y/n)")
    }

    @Test("a course completed, then left, says so in its status, and e is offered to join it again")
    func completedThenLeft() async {
        let learner = LearnerStub()
        learner.completed = ["swift-101"]
        learner.completions = [Self.course.id: Date(timeIntervalSince1970: 1_767_355_200)]
        let (sut, _, _) = await makeSUT(learner: learner)

        let status = draw(sut).lines.first { $0.contains("Status") }

        #expect(status == "  Status        Completed 2 Jan 2026 · not enrolled")
        #expect(sut.availableKeys.contains(CourseDetailScreen.Keys.enroll))
    }

    @Test("e enrolls through the learner, with the prerequisite; on a locked course it says why and offers nothing")
    func enroll() async {
        let learner = LearnerStub()
        learner.enrollRefusal = "Complete Swift Fundamentals first"
        let (sut, _, _) = await makeSUT(learner: learner)

        _ = await sut.handle(.char("e"))
        await sut.settle()

        #expect(learner.writes == [.enroll("swift-concurrency", prerequisite: "swift-101")])
        #expect(learner.reported == [.error("Complete Swift Fundamentals first")])
        #expect(!sut.availableKeys.contains(CourseDetailScreen.Keys.enroll))
    }

    @Test("u asks first, keeping (y/n) visible however long the title; y unenrolls, n does not")
    func unenroll() async {
        let learner = LearnerStub()
        var course = Self.course
        course.title = String(repeating: "A very long title ", count: 10)
        learner.enrollments = [course.id: .fixture(courseID: course.id)]
        let (sut, _, _) = await makeSUT(course: course, learner: learner)

        _ = await sut.handle(.char("u"))
        #expect(sut.statusMessage?.displayText(fitting: 48, texts: .english).hasSuffix("? (y/n)") == true)
        #expect(sut.isCapturingText)
        _ = await sut.handle(.char("n"))
        #expect(learner.writes == [])
        _ = await sut.handle(.char("u"))
        _ = await sut.handle(.char("y"))
        await sut.settle()

        #expect(learner.writes == [.unenroll(course.id)])
        #expect(learner.reported.first?.text.english.hasPrefix("Unenrolled from") == true)
    }

    @Test("e on a paid course asks with its price; n leaves it, y enrolls; a free course is joined at once")
    func paidAsks() async {
        let learner = LearnerStub()
        var course = Self.course
        course.prerequisiteID = nil
        let (sut, _, _) = await makeSUT(course: course, learner: learner)

        _ = await sut.handle(.char("e"))
        #expect(sut.statusMessage?.text == "Enroll in Swift Concurrency in Practice for 35.99 EUR? (y/n)")
        #expect(sut.isCapturingText && sut.availableKeys.map(\.key) == ["y", "n"])
        #expect(Texts(.spanish)(sut.statusMessage?.text ?? "") == "¿Inscribirte en Swift Concurrency in Practice por 35,99 €? (s/n)")
        _ = await sut.handle(.char("n"))
        #expect(sut.statusMessage == nil && learner.writes.isEmpty)
        _ = await sut.handle(.char("e"))
        _ = await sut.handle(.char("y"))
        #expect(learner.writes == [.enroll(course.id, prerequisite: nil)])

        course.price = Price(minorUnits: 0, currency: "EUR")
        let free = LearnerStub()
        let (freeScreen, _, _) = await makeSUT(course: course, learner: free)
        _ = await freeScreen.handle(.char("e"))
        #expect(freeScreen.statusMessage == nil)
        #expect(free.writes == [.enroll(course.id, prerequisite: nil)])
    }

    @Test("e y Space Space Space in one burst: enrolled, then three lessons done, each key acting on what the one before did")
    func burst() async {
        let learner = LearnerStub()
        learner.gate = Gate()
        var course = Self.course
        course.prerequisiteID = nil
        let (sut, _, _) = await makeSUT(course: course, learner: learner)

        for key in [InputEvent.char("e"), .char("y"), .char(" "), .char(" "), .char(" ")] {
            _ = await sut.handle(key)
        }

        #expect(
            learner.writes == [
                .enroll(course.id, prerequisite: nil),
                .setLesson(1, course.id, done: true), .setLesson(2, course.id, done: true), .setLesson(3, course.id, done: true),
            ])
        await learner.gate?.open()
        await sut.settle()
    }
}
