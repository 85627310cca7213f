import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import Review

@Suite("Review: the cards due today")
@MainActor
struct ReviewScreenTests {
    static let course = Course.fixture(id: "learn", title: "Learning 101")
    static let question = Question(
        prompt: "Which one is B?", choices: ["A", "B", "C"], correct: [1], explanation: "B is the second letter.")
    static let lessons = [
        Lesson(title: "Welcome", minutes: 10, content: LessonContent(body: "Hi", questions: [question, question]))
    ]
    static let day = LearnerDay(iso: "2026-11-24")!

    /// The demo learner enrolled and both questions answered (the first right, the second
    /// wrong) on `day`; the screen on `today`.
    func makeSUT(today: LearnerDay, changes: Notices<Void> = Notices()) async throws -> (ReviewScreen, InMemoryStore, Reports) {
        let store = InMemoryStore(courses: [Self.course], lessons: ["learn": Self.lessons])
        _ = try await store.enroll(userID: User.demo.id, courseID: "learn")
        for (index, chosen) in [(0, Set([1])), (1, [2])] {
            _ = try await store.answer(
                chosen, to: QuestionRef(courseID: "learn", lesson: 1, question: index), userID: User.demo.id, on: Self.day)
        }
        let reports = Reports()
        let screen = ReviewScreen(
            viewModel: ReviewViewModel(
                learner: User.demo.id, learning: store, today: { today }, report: { reports.messages.append($0) },
                changes: changes))
        screen.appear()
        await screen.settle()
        return (screen, store, reports)
    }

    func draw(_ screen: ReviewScreen, width: Int = 60, height: Int = 14) -> [String] {
        var canvas = TextCanvas(size: Size(width: width, height: height))
        screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 0, width: width, height: height)))
        return canvas.lines
    }

    @Test("the day the questions were answered: nothing due, and the screen says where cards come from")
    func nothingDue() async throws {
        let (screen, _, _) = try await makeSUT(today: Self.day)
        let lines = draw(screen)
        #expect(lines[0].hasPrefix(" Review  0 due today"))
        #expect(lines.contains { $0.contains("Nothing to review today") })
    }

    @Test("the next day: a card drawn whole, answered, explained, graded good; then the next; then all done")
    func reviewsTheDeck() async throws {
        let (screen, store, _) = try await makeSUT(today: Self.day.adding(days: 1))
        #expect(
            draw(screen) == [
                " Review  2 due today",
                "",
                " Learning 101 · Welcome",
                " Which one is B?",
                "",
                "  ○ A",
                "  ○ B",
                "  ○ C",
                "", "", "", "", "", "",
            ])
        #expect(screen.availability(of: ReviewScreen.Keys.good) == .unavailable(reason: "Answer the card first"))

        _ = await screen.handle(.key(.down))
        _ = await screen.handle(.key(.enter))
        let answered = draw(screen)
        #expect(answered.contains("  ✓ B"))
        #expect(answered.contains(" ✓ Right"))
        #expect(answered.contains(" B is the second letter."))
        #expect(screen.availability(of: ReviewScreen.Keys.good) == .available)

        _ = await screen.handle(.key(.character("g")))
        #expect(draw(screen)[0].hasPrefix(" Review  1 due today · 1 reviewed"))
        let graded = await store.messages.compactMap { message -> ReviewGrade? in
            if case .review(_, let grade, _, _) = message { return grade }
            return nil
        }
        #expect(graded == [.good])

        _ = await screen.handle(.key(.enter))  // the highlighted A: wrong
        #expect(draw(screen).contains(" ✗ Not quite"))
        _ = await screen.handle(.key(.enter))  // Enter grades as suggested: again
        await screen.settle()
        let done = draw(screen)
        #expect(done.contains { $0.contains("All done for today: 2 reviewed") })
        let deck = try await store.reviewDeck(userID: User.demo.id, on: Self.day.adding(days: 1), limit: 10)
        #expect(deck.dueCount == 0)
        let tomorrow = try await store.reviewDeck(userID: User.demo.id, on: Self.day.adding(days: 2), limit: 10)
        #expect(tomorrow.cards.map(\.ref.question) == [1], "the card graded again comes back the next day")
    }

    @Test("news of a review elsewhere: the card in front stays, half answered, while still due; once reviewed elsewhere it goes")
    func reviewedElsewhere() async throws {
        let changes = Notices<Void>()
        let tomorrow = Self.day.adding(days: 1)
        let (screen, store, _) = try await makeSUT(today: tomorrow, changes: changes)
        _ = await screen.handle(.key(.down))
        _ = await screen.handle(.key(.enter))
        #expect(draw(screen).contains(" ✓ Right"))

        // Another terminal reviews the second card: this one stays as it is, the count goes down.
        _ = try await store.review(
            QuestionRef(courseID: "learn", lesson: 1, question: 1), grade: .good, userID: User.demo.id, on: tomorrow)
        changes.post(())
        await screen.settle()
        let kept = draw(screen)
        #expect(kept[0].hasPrefix(" Review  1 due today"))
        #expect(kept.contains(" ✓ Right"), "the answer shown stays")

        // Then it reviews this one too: nothing is left.
        _ = try await store.review(
            QuestionRef(courseID: "learn", lesson: 1, question: 0), grade: .easy, userID: User.demo.id, on: tomorrow)
        changes.post(())
        await screen.settle()
        #expect(draw(screen)[0].hasPrefix(" Review  0 due today"))
        #expect(draw(screen).contains { $0.contains("Nothing to review today") })
    }

    @Test("a grade that cannot be saved keeps the card and says why")
    func failedGrade() async throws {
        let (screen, store, reports) = try await makeSUT(today: Self.day.adding(days: 1))
        _ = await screen.handle(.key(.enter))
        await store.setFailure(.storage(.saving, detail: "disk"))
        _ = await screen.handle(.key(.character("a")))
        #expect(reports.messages == [.error("Something went wrong while saving your data.")])
        #expect(draw(screen)[0].hasPrefix(" Review  2 due today"))
    }
}

/// What a model reported, in order.
@MainActor
final class Reports {
    var messages: [StatusMessage] = []
}
