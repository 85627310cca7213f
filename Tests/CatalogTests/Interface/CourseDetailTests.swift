import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import Catalog

@Suite("Course page")
@MainActor
final class CourseDetailTests {
    /// What `makeSUT` made: each must be gone once the test is.
    private let leaks = LeakTracker()

    deinit {
        #expect(leaks.alive == [], "kept alive after the test")
    }

    static let basics = Course.fixture(id: "swift-101", title: "Swift Fundamentals")
    static let course = Course.fixture(
        id: "swift-concurrency", title: "Swift Concurrency in Practice", instructor: "María García",
        category: "Swift", level: .intermediate, durationMinutes: 150, capacity: 40, enrolledCount: 12,
        tags: ["swift", "async"], prerequisiteID: "swift-101",
        description:
            "Structured concurrency, actors and Sendable, from first task to production. You will migrate a callback-based networking layer to async/await."
    )
    static let lessons = [
        Lesson(title: "From callbacks to async/await", minutes: 40),
        Lesson(title: "Tasks and cancellation", minutes: 50),
        Lesson(title: "Actors", minutes: 60),
    ]

    @Test("the page shows the facts, the wrapped description and the syllabus")
    func page() async {
        let (sut, _, _) = await makeSUT()

        let lines = draw(sut).lines

        #expect(
            Array(lines[1...21]) == [
                "  Swift Concurrency in Practice",
                "  by María García",
                "",
                "  Category      Swift",
                "  Level         Intermediate",
                "  Duration      2h 30min",
                "  Price         35.99 EUR",
                "  Seats left    28 of 40",
                "  Prerequisite  Swift Fundamentals — complete it first (p opens it)",
                "  Tags          swift, async",
                "  Status        Locked until its prerequisite is completed",
                "",
                "  Structured concurrency, actors and Sendable, from first task to production.",
                "  You will migrate a callback-based networking layer to async/await.",
                "",
                "  Syllabus  3 lessons · 2h 30min",
                "    1. From callbacks to async/await                                     40min",
                "    2. Tasks and cancellation                                            50min",
                "    3. Actors                                                               1h",
                "",
                "",
            ])
    }

    @Test("at 200 columns the page keeps a reading width of 100, centred: a lesson's minutes stay near its title")
    func readingWidth() async {
        let (sut, _, _) = await makeSUT()

        let lines = draw(sut, width: 200, height: 30).lines
        let lesson = lines.first { $0.contains("1. From callbacks to async/await") } ?? ""
        let title = lesson.range(of: "1. From")?.lowerBound.utf16Offset(in: lesson) ?? 0
        let minutes = lesson.range(of: "40min")?.upperBound.utf16Offset(in: lesson) ?? 0
        #expect(minutes - title <= 100, "\(lesson)")
        #expect(title >= 50, "centred: \(lesson)")
        #expect(lines.contains { $0.contains("Swift Concurrency in Practice") && $0.hasPrefix(String(repeating: " ", count: 50)) })
    }

    @Test("opening a course reads the learner's marks on it afresh: lessons another terminal marked show, and the selection is past them")
    func opensWithFreshMarks() async {
        let learner = LearnerStub()
        learner.completed = ["swift-101"]
        learner.enrollments = ["swift-concurrency": .fixture(courseID: "swift-concurrency")]
        learner.storeHolds = ([], ["swift-concurrency": .fixture(courseID: "swift-concurrency", lessonsDone: [1, 2])])

        let (_, viewModel, _) = await makeSUT(learner: learner)

        #expect(learner.actions == [.readAgain("swift-concurrency")])
        #expect(viewModel.selectedLesson == 2)
        #expect(viewModel.isDone(0) && viewModel.isDone(1) && !viewModel.isDone(2))
    }

    @Test("the course changed in the store (its seats) is read again quietly: the selected lesson stays")
    func courseChangedInTheStore() async {
        let learner = LearnerStub()
        learner.completed = ["swift-101"]
        learner.enrollments = ["swift-concurrency": .fixture(courseID: "swift-concurrency")]
        let changes = Notices<CatalogChange>()
        var course = Self.course
        let (sut, viewModel, store) = await makeSUT(course: course, learner: learner, changes: changes)
        _ = await sut.handle(.key(.down))
        course.enrolledCount = 39
        await store.addCourses([course])

        changes.post(.course(course.id))
        #expect(viewModel.state.value != nil, "the page stays on screen while it is read")
        await sut.settle()

        #expect(viewModel.selectedLesson == 1)
        #expect(draw(sut).lines.contains("  Seats left    1 of 40"))
    }

    @Test("news of the learner's answers in this course (another terminal answered) reads the score again; another course's, nothing")
    func answersElsewhere() async throws {
        let (sut, learner, changes) = await enrolled(questions: 2)
        #expect(draw(sut).lines.contains { $0.contains("Score") && $0.contains("0 of 0 answered right · 2 to answer") })

        let ref = QuestionRef(courseID: Self.course.id, lesson: 1, question: 0)
        learner.answers.set([Answer(ref: ref, chosen: [0], to: Self.question)], of: Self.course.id)
        changes.post(.answers("another-course"))
        await sut.settle()
        #expect(draw(sut).lines.contains { $0.contains("0 of 0 answered right") }, "another course's answers: not read")
        changes.post(.answers(Self.course.id))
        await sut.settle()
        #expect(draw(sut).lines.contains { $0.contains("Score") && $0.contains("1 of 1 answered right · 1 to answer") })
    }

    @Test("an answer given offline and not checked yet counts apart from the score: neither right nor wrong")
    func answersToBeChecked() async throws {
        let (sut, learner, changes) = await enrolled(questions: 2)
        let (first, second) = (
            QuestionRef(courseID: Self.course.id, lesson: 1, question: 0), QuestionRef(courseID: Self.course.id, lesson: 1, question: 1)
        )
        learner.answers.set([Answer(ref: first, chosen: [0], to: Self.question), .unchecked([1], to: second)], of: Self.course.id)
        changes.post(.answers(Self.course.id))
        await sut.settle()
        let lines = draw(sut).lines
        #expect(lines.contains { $0.contains("Score") && $0.contains("1 of 1 answered right · 1 to be checked") }, "\(lines)")
        #expect(!lines.contains { $0.contains("to answer") }, "both are answered")
    }

    @Test("answers that cannot be read (the server away) say so in the score, not 0 of 0; read again, the score")
    func answersUnread() async throws {
        let (sut, learner, changes) = await enrolled(questions: 2)
        learner.answers.fail(with: .unreachable(host: "edugo.test:8080"))
        changes.post(.answers(Self.course.id))
        await sut.settle()
        let lines = draw(sut).lines
        #expect(lines.contains { $0.contains("Score") && $0.contains("— (could not be read)") }, "\(lines)")
        #expect(!lines.contains { $0.contains("answered right") })
        learner.answers.fail(with: nil)
        changes.post(.answers(Self.course.id))
        await sut.settle()
        #expect(draw(sut).lines.contains { $0.contains("Score") && $0.contains("0 of 0 answered right · 2 to answer") })
    }

    @Test("a fact too long for its column wraps under itself, never cut: Spanish's score at 60 columns")
    func factsWrap() async throws {
        let (sut, _, _) = await enrolled(questions: 15)

        var canvas = TextCanvas(size: Size(width: 60, height: 40))
        sut.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 60, height: 38), texts: Texts(.spanish)))

        let score = try #require(canvas.lines.firstIndex { $0.contains("Preguntas") })
        let both = canvas.lines[score] + " " + canvas.lines[score + 1].trimmingCharacters(in: .whitespaces)
        #expect(both.contains("0 de 0 acertadas · 15 por responder"), "\(canvas.lines[score...(score + 1)])")
        #expect(!canvas.lines.contains { $0.contains("…") && $0.contains("responder") })
        let column = try #require(canvas.lines[score].prefixWidth(upTo: "0 de 0"))
        #expect(canvas.lines[score + 1].prefix(column).allSatisfy { $0 == " " }, "under the value, not the label")
    }

    @Test("the learner's own e moves the seats shown at once, until the page is read again after the save")
    func ownEnrollMovesSeats() async {
        let learner = LearnerStub()
        learner.completed = ["swift-101"]
        let gate = Gate()
        learner.gate = gate
        let (sut, viewModel, _) = await makeSUT(learner: learner)

        _ = await sut.handle(.char("e"))
        _ = await sut.handle(.char("y"))
        #expect(viewModel.shownCourse?.enrolledCount == 13)
        await gate.open()
        await sut.settle()

        #expect(viewModel.seatCorrection == 0)
        #expect(viewModel.shownCourse?.enrolledCount == 12, "the store's count, read again (this stub store took no seat)")
    }

    @Test("p opens the prerequisite; Backspace goes back")
    func navigation() async {
        var opened: [CourseID] = []
        var backs = 0
        let (sut, _, _) = await makeSUT(onOpenCourse: { opened.append($0) }, onBack: { backs += 1 })

        _ = await sut.handle(.char("p"))
        _ = await sut.handle(.key(.backspace))

        #expect(opened == ["swift-101"])
        #expect(backs == 1)
    }

    @Test("the title stays while the page scrolls, and ↑ more / ↓ more have rows of their own")
    func scrolling() async {
        var course = Self.course
        course.description = (1...30).map { "Paragraph \($0)." }.joined(separator: "\n")
        let (sut, _, _) = await makeSUT(course: course)

        let top = draw(sut).lines
        _ = await sut.handle(.key(.pageDown))
        let scrolled = draw(sut).lines

        #expect(top[1] == "  Swift Concurrency in Practice")
        #expect(top[22].trimmingCharacters(in: .whitespaces) == "↓ more")
        #expect(scrolled[1] == "  Swift Concurrency in Practice")
        #expect(scrolled[4].trimmingCharacters(in: .whitespaces) == "↑ more")
        #expect(scrolled[22].trimmingCharacters(in: .whitespaces) == "↓ more")
        #expect(!scrolled[5].contains("more") && !scrolled[21].contains("more"))
        _ = await sut.handle(.key(.end))
        let bottom = draw(sut).lines
        #expect(bottom[22].hasPrefix("    3. Actors") && bottom[22].hasSuffix("1h"))
        #expect(!bottom.contains { $0.contains("↓ more") })
    }

    @Test("a 1 MB description without a space opens and scrolls wrapping only what shows")
    func hugeDescription() async throws {
        var course = Self.course
        course.description = String(repeating: "x", count: 1_000_000)
        let (sut, _, _) = await makeSUT(course: course)

        let first = draw(sut).lines
        _ = await sut.handle(.key(.pageDown))
        let second = draw(sut).lines

        #expect(first[14] == "  " + String(repeating: "x", count: 76))
        #expect(second[5] == "  " + String(repeating: "x", count: 76))
        let wrapped = try #require(sut.wrappedDescription)
        #expect(!wrapped.isComplete)
        #expect(wrapped.lines.count < 100)
    }

    @Test("an unknown course shows the error and a retry")
    func unknownCourse() async {
        let (sut, _, _) = await makeSUT(course: .fixture(id: "gone"), stored: [])

        let text = draw(sut).text

        #expect(text.contains(AppError.courseNotFound("gone").userMessage.english))
        #expect(text.contains("Press r to retry"))
        #expect(sut.availableKeys == [CourseDetailScreen.Keys.retry])
    }

    @Test(
        "numbers no store should hold draw without a trap and without negative lengths",
        arguments: [
            (Course.fixture(id: "huge", durationMinutes: 150), [1 << 62, 1 << 62], "Syllabus  2 lessons · 153722867280912930h 7min"),
            (.fixture(id: "seats", capacity: .max, enrolledCount: .min), [40], "Seats left    9223372036854775807 of 9223372036854775807"),
            (.fixture(id: "full", capacity: .min, enrolledCount: .max), [40], "Seats left    None — the course is full"),
            (.fixture(id: "negative", durationMinutes: -100), [-100, 40], "Duration      0min"),
            (.fixture(id: "negative-lessons", durationMinutes: 150), [-100, 40], "Syllabus  2 lessons · 40min"),
        ] as [(Course, [Int], String)])
    func untrustedNumbers(course: Course, minutes: [Int], expected: String) async {
        let store = InMemoryStore(courses: [course], lessons: [course.id: minutes.map { Lesson(title: "Lesson", minutes: $0) }])
        let screen = CourseDetailScreen(
            viewModel: CourseDetailViewModel(courseID: course.id, courses: store, learner: LearnerStub().learner), onOpenCourse: { _ in },
            onBack: {}
        )
        screen.appear()
        await screen.settle()

        let text = draw(screen).text

        #expect(text.contains(expected), "\(text)")
        #expect(!text.contains("-1h"), "no negative duration")
    }

    // MARK: - Helpers

    static let question = Question(prompt: "Which?", choices: ["A", "B"], correct: [0], explanation: "A.")

    /// The page of the course the learner is enrolled in, its first lesson asking `questions`.
    func enrolled(questions: Int) async -> (CourseDetailScreen, LearnerStub, Notices<CatalogChange>) {
        let learner = LearnerStub()
        learner.enrollments = [Self.course.id: .fixture(courseID: Self.course.id)]
        let changes = Notices<CatalogChange>()
        let (sut, _, store) = await makeSUT(learner: learner, changes: changes)
        let asked = Lesson(
            title: "Asked", minutes: 10, content: LessonContent(questions: Array(repeating: Self.question, count: questions)))
        await store.setLessons([asked] + Self.lessons.dropFirst(), of: Self.course.id)
        changes.post(.course(Self.course.id))
        await sut.settle()
        return (sut, learner, changes)
    }

    func makeSUT(
        course: Course = CourseDetailTests.course,
        stored: [Course]? = nil,
        learner: LearnerStub = LearnerStub(),
        onOpenCourse: @escaping @MainActor (CourseID) -> Void = { _ in },
        onBack: @escaping @MainActor () -> Void = {},
        changes: Notices<CatalogChange> = Notices()
    ) async -> (CourseDetailScreen, CourseDetailViewModel, InMemoryStore) {
        let store = InMemoryStore(courses: stored ?? [Self.basics, course], lessons: stored == nil ? [course.id: Self.lessons] : [:])
        let viewModel = CourseDetailViewModel(courseID: course.id, courses: store, learner: learner.learner, changes: changes)
        let screen = CourseDetailScreen(viewModel: viewModel, onOpenCourse: onOpenCourse, onBack: onBack)
        leaks.track(viewModel)
        leaks.track(screen)
        screen.appear()
        await screen.settle()
        return (screen, viewModel, store)
    }
}
