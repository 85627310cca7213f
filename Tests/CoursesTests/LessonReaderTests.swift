import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import Courses

@Suite("The lesson reader")
@MainActor
struct LessonReaderTests {
    static let course = Course.fixture(id: "learn", title: "Learning 101")
    static let question = Question(prompt: "Which one is B?", choices: ["A", "B", "C"], correct: [1], explanation: "B is second.")
    static let body = "## Start here\n\nA *short* lesson with `code`.\n\n" + (1...30).map { "Paragraph \($0)." }.joined(separator: "\n\n")
    static let lessons = [
        Lesson(title: "Welcome", minutes: 10, content: LessonContent(body: body, questions: [question])),
        Lesson(title: "No text", minutes: 10),
    ]
    static let day = LearnerDay(iso: "2026-11-24")!

    final class Opened {
        var lessons: [Int] = []
        var backs = 0
        var reports: [StatusMessage] = []
    }

    func makeSUT(lesson: Int = 1, enrolled: Bool = true) async -> (LessonReaderScreen, InMemoryStore, Opened, LearnerEnrollments) {
        let store = InMemoryStore(courses: [Self.course], lessons: ["learn": Self.lessons])
        if enrolled { await store.addEnrollment(.fixture(courseID: "learn")) }
        let opened = Opened()
        let feature = CoursesFeature(
            learner: User.demo.id, enrollments: store, courses: store,
            learning: LessonAccess(repository: store, time: { StudyTime(noonOf: Self.day, secondsFromGMT: 0) }),
            report: { opened.reports.append($0) })
        await feature.prepare()
        let screen = feature.makeReaderScreen(
            courseID: "learn", lesson: lesson, onOpenLesson: { opened.lessons.append($0) }, onBack: { opened.backs += 1 })
        let reader = screen as! LessonReaderScreen  // swiftlint:disable:this force_cast
        reader.appear()
        await reader.settle()
        return (reader, store, opened, feature.model)
    }

    func draw(_ screen: LessonReaderScreen, width: Int = 50, height: Int = 12) -> [String] {
        var canvas = TextCanvas(size: Size(width: width, height: height))
        screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 0, width: width, height: height)))
        return canvas.lines
    }

    @Test("the lesson's place, title and text; Space pages down to the end, which says what follows")
    func readsToTheEnd() async {
        let (screen, _, _, _) = await makeSUT()
        let first = draw(screen)
        #expect(first[0].hasPrefix(" Lesson 1 of 2 · Learning 101"))
        #expect(first[1] == " Welcome")
        #expect(first.contains { $0.contains("Start here") })
        #expect(first.contains { $0.contains("A short lesson with code.") })
        #expect(screen.availability(of: LessonReaderScreen.Keys.more) == .available)

        _ = await screen.handle(.key(.character(" ")))
        let paged = draw(screen)
        #expect(paged[3] != first[3], "Space pages down")
        #expect(paged[2].hasSuffix("↑ more"))
        var end = paged
        for _ in 0..<20 where !end.contains(where: { $0.contains("End of the lesson") }) {
            _ = await screen.handle(.key(.character(" ")))
            end = draw(screen)
        }
        #expect(end.contains { $0.contains("Paragraph 30.") })
        #expect(end.contains { $0.contains("── End of the lesson · 1 question follows") })
        #expect(screen.availability(of: LessonReaderScreen.Keys.questions) == .available)
    }

    @Test("--accessible: the cursor is on the title, then after each Space on the first line Space brought, never back on the title")
    func focusFollowsTheText() async {
        let (screen, _, _, _) = await makeSUT()
        func focus() -> (row: Int, line: String) {
            var canvas = AccessibleCanvas(TextCanvas(size: Size(width: 50, height: 12)))
            screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 0, width: 50, height: 12)))
            let row = canvas.focus?.y ?? -1
            return (row, canvas.base.lines.indices.contains(row) ? canvas.base.lines[row] : "")
        }
        let before = draw(screen)
        #expect(focus().row == 1, "the title")
        _ = await screen.handle(.key(.character(" ")))
        let after = draw(screen)
        let landed = focus()
        #expect(landed.row > 1, "on the text, not the title")
        #expect(!before.contains(landed.line), "a line Space brought: \(landed.line)")
        #expect(focus().row == landed.row, "drawn again, it stays")
        #expect(after[landed.row] == landed.line)
    }

    @Test("its question: pick with a digit, Enter answers and explains; the answer is stored; Space marks done and opens the next")
    func answersAndMarksDone() async throws {
        let (screen, store, opened, model) = await makeSUT()
        _ = draw(screen)
        _ = await screen.handle(.key(.character("G")))
        _ = draw(screen)
        _ = await screen.handle(.key(.character(" ")))
        #expect(draw(screen).contains { $0.hasPrefix(" Question 1 of 1") })
        #expect(screen.takesDigits, "the digits choose, they do not switch tabs")
        #expect(!screen.isCapturingText, "q, ?, Tab and the palette still work")
        let order = ChoiceOrder.shuffled(count: 3, for: QuestionRef(courseID: "learn", lesson: 1, question: 0), on: Self.day)
        let (a, b) = (try #require(order.position(of: 0)) + 1, try #require(order.position(of: 1)) + 1)

        // Enter with nothing picked answers nothing.
        #expect(screen.availability(of: LessonReaderScreen.Keys.answer) == .unavailable(reason: "Pick an answer first"))
        _ = await screen.handle(.key(.enter))
        #expect(opened.reports == [.error("Pick an answer first")])
        #expect(try await store.answers(userID: User.demo.id, courseID: "learn").isEmpty)

        _ = await screen.handle(.key(.character(Character(String(b)))))
        #expect(draw(screen).contains("  \(b) ● B"))
        _ = await screen.handle(.key(.enter))
        let answered = draw(screen)
        #expect(answered.contains("  \(b) ✓ B"))
        #expect(answered.contains("  \(a)   A"))
        #expect(answered.contains(" ✓ Right"))
        #expect(answered.contains(" B is second."))
        #expect(
            try await store.answers(userID: User.demo.id, courseID: "learn")
                == [Answer(ref: QuestionRef(courseID: "learn", lesson: 1, question: 0), chosen: [1], to: Self.question)])
        #expect(screen.availability(of: LessonReaderScreen.Keys.markDone) == .available)

        _ = await screen.handle(.key(.character(" ")))
        #expect(opened.lessons == [2])
        #expect(model.enrollment(for: "learn")?.lessonsDone == [1], "shown done at once, saved by the enrollments' owner")
    }

    @Test("a question answered meanwhile in another terminal: that first answer shows, and the learner is told")
    func answeredElsewhere() async throws {
        let (screen, store, opened, _) = await makeSUT()
        _ = await screen.handle(.key(.character("G")))
        _ = draw(screen)
        _ = await screen.handle(.key(.character(" ")))
        let ref = QuestionRef(courseID: "learn", lesson: 1, question: 0)
        _ = try await store.answer([0], to: ref, userID: User.demo.id, at: StudyTime(noonOf: Self.day, secondsFromGMT: 0))
        let order = ChoiceOrder.shuffled(count: 3, for: ref, on: Self.day)

        _ = await screen.handle(.key(.character(Character(String(try #require(order.position(of: 1)) + 1)))))
        _ = await screen.handle(.key(.enter))

        #expect(draw(screen).contains(" ✗ Not quite"), "the answer kept is the other terminal's: A")
        #expect(opened.reports == [StatusMessage("Answered in another terminal: this is that answer")])
    }

    @Test("answers that cannot be read (remote mode offline) leave the lesson readable, and the learner told once")
    func answersUnread() async throws {
        let (screen, store, opened, _) = await makeSUT()
        await store.setFailure(.unreachable(host: "edugo.test:8080"), only: { if case .answers = $0 { true } else { false } })
        _ = await screen.handle(.key(.character("r")))
        await screen.settle()

        #expect(draw(screen).joined().contains("Lesson 1 of"), "\(draw(screen))")
        #expect(opened.reports == [.error("Your earlier answers could not be read")])
    }

    @Test("a lesson the server cannot give (remote mode offline, not saved here) says so, and r reads it once the server is back")
    func notSavedOffline() async throws {
        let (screen, store, _, _) = await makeSUT()
        await store.setFailure(.unreachable(host: "edugo.test:8080"), only: { if case .lessonContent = $0 { true } else { false } })
        _ = await screen.handle(.key(.character("r")))
        await screen.settle()
        // The message wraps at the screen's width.
        let offline = draw(screen).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        #expect(offline.contains("This lesson is not saved for offline: it opens when"), "\(offline)")
        #expect(offline.contains("edugo.test:8080 answers again") && offline.contains("Press r to retry"), "\(offline)")

        await store.setFailure(nil)
        _ = await screen.handle(.key(.character("r")))
        await screen.settle()
        #expect(draw(screen).joined().contains("Lesson 1 of"))
    }

    @Test("a lesson without text says so; n and p move, and say why at either end")
    func noTextAndEnds() async {
        let (screen, _, opened, _) = await makeSUT(lesson: 2)
        #expect(draw(screen).contains { $0.contains("This lesson has no text yet") })
        #expect(screen.availability(of: LessonReaderScreen.Keys.next) == .unavailable(reason: "This is the last lesson of Learning 101"))
        _ = await screen.handle(.key(.character("p")))
        #expect(opened.lessons == [1])
        #expect(screen.availability(of: LessonReaderScreen.Keys.markDone) == .available)
        _ = await screen.handle(.key(.character(" ")))
        #expect(opened.backs == 1, "the last lesson done: back to the course")
    }

    @Test("a resize keeps the reading position: the line at the top stays in view")
    func resizeKeepsPlace() async {
        let (screen, _, _, _) = await makeSUT()
        for _ in 0..<3 { _ = await screen.handle(.key(.pageDown)) }
        let narrow = draw(screen, width: 40)
        // The first text line shown (a blank one would be found anywhere).
        let top = narrow[3...].map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty && $0 != "↑ more" } ?? ""
        #expect(top.hasPrefix("Paragraph"), "scrolled into the paragraphs: \(top)")
        let wide = draw(screen, width: 120)
        #expect(wide[3...5].contains { $0.contains(top) }, "\(top) near the top at 120 columns")
    }
}
