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

    /// The demo learner enrolled and both questions answered at noon on `day` (the first
    /// right, the second wrong); the screen at `at`, which the test moves, on a clock it holds.
    func makeSUT(at time: StudyTime, changes: Notices<Void> = Notices(), clock: ManualClock = ManualClock()) async throws -> (
        ReviewScreen, InMemoryStore, Reports
    ) {
        let store = InMemoryStore(courses: [Self.course], lessons: ["learn": Self.lessons])
        _ = try await store.enroll(userID: User.demo.id, courseID: "learn")
        for (index, chosen) in [(0, Set([1])), (1, [2])] {
            _ = try await store.answer(
                chosen, to: QuestionRef(courseID: "learn", lesson: 1, question: index), userID: User.demo.id, at: Self.answered)
        }
        let reports = Reports()
        reports.time = time
        let screen = ReviewScreen(
            viewModel: ReviewViewModel(
                learner: User.demo.id, learning: store, time: { reports.time }, report: { reports.messages.append($0) },
                changes: changes, clock: clock))
        screen.appear()
        await screen.settle()
        return (screen, store, reports)
    }

    /// Noon on `day`, UTC: when the questions were answered.
    static let answered = StudyTime(noonOf: day, secondsFromGMT: 0)
    /// The next day at noon: both cards due, new to review.
    static let tomorrow = StudyTime(noonOf: day.adding(days: 1), secondsFromGMT: 0)

    func draw(_ screen: ReviewScreen, width: Int = 60, height: Int = 14) -> [String] {
        var canvas = TextCanvas(size: Size(width: width, height: height))
        screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 0, width: width, height: height)))
        return canvas.lines
    }

    @Test("the moment the questions were answered: nothing due; the missed one comes back in a minute, on the clock")
    func nothingDueYet() async throws {
        let clock = ManualClock()
        let (screen, _, reports) = try await makeSUT(at: Self.answered, clock: clock)
        let lines = draw(screen)
        #expect(lines[0].hasPrefix(" Review  0 new · 0 learning · 0 due"))
        #expect(lines.contains { $0.contains("Nothing to review right now") })
        #expect(lines.contains { $0.contains("A card in its steps comes back at 12:01") })

        await clock.waitForSleeper()
        #expect(clock.timeToNextWake == .seconds(60))
        reports.time = Self.answered.adding(seconds: 60)
        clock.advance(by: .seconds(60))
        await screen.viewModel.waitedForComingBack()
        #expect(draw(screen)[0].hasPrefix(" Review  1 new · 0 learning · 0 due"), "it came back with no key pressed")
        #expect(screen.viewModel.card?.ref.question == 1)
    }

    /// The digit that picks `choice` of the card in front: its place in the day's order.
    func digit(for choice: Int, on screen: ReviewScreen) throws -> Character {
        let position = try #require(screen.viewModel.order.position(of: choice))
        return Character(String(position + 1))
    }

    func writes(_ store: InMemoryStore) async -> Int {
        await store.messages.count { if case .review = $0 { true } else { false } }
    }

    @Test(
        "the next day: a card drawn whole, its choices numbered in the day's order, answered, explained, graded good; then the next; then all done"
    )
    func reviewsTheDeck() async throws {
        let (screen, store, reports) = try await makeSUT(at: Self.tomorrow)
        let front = try #require(screen.viewModel.card?.ref)
        #expect(front.question == 1, "the card due first (the missed one's step is the shorter) comes first")
        let order = ChoiceOrder.shuffled(count: 3, for: front, on: Self.tomorrow.day)
        #expect(order.choices != [0, 1, 2], "this card and day shuffle (a test of the shuffle needs one that does)")
        let letters = ["A", "B", "C"]
        #expect(
            draw(screen) == [
                " Review  2 new · 0 learning · 0 due",
                "",
                " Learning 101 · Welcome",
                " Which one is B?",
                "",
            ] + order.choices.enumerated().map { "  \($0.offset + 1) ○ \(letters[$0.element])" } + ["", "", "", "", "", ""])
        #expect(screen.availability(of: ReviewScreen.Keys.good) == .unavailable(reason: "Answer the card first"))
        #expect(screen.takesDigits, "the digits pick here, they do not switch tabs")

        _ = await screen.handle(.char(try digit(for: 1, on: screen)))
        _ = await screen.handle(.key(.enter))
        let answered = draw(screen)
        #expect(answered.contains { $0.hasSuffix("✓ B") })
        #expect(answered.contains(" ✓ Right"))
        #expect(answered.contains(" B is the second letter."))
        #expect(screen.availability(of: ReviewScreen.Keys.good) == .available)

        let labels = [ReviewScreen.Keys.again, ReviewScreen.Keys.hard, ReviewScreen.Keys.good, ReviewScreen.Keys.easy].map {
            screen.footerLabel(of: $0)
        }
        #expect(labels.first == "again \(IntervalText.format(seconds: 60))", "each grade says when the card comes back")
        #expect((screen.viewModel.comingBackAfter[.easy] ?? 0) >= 86_400, "easy: days on")
        #expect(labels.count == 4)

        _ = await screen.handle(.key(.character("g")))
        #expect(draw(screen)[0].hasPrefix(" Review  1 new · 0 learning · 0 due · 1 reviewed"))
        let graded = await store.messages.compactMap { message -> ReviewGrade? in
            if case .review(_, let grade, _, _) = message { return grade }
            return nil
        }
        #expect(graded == [.good])

        _ = await screen.handle(.char(try digit(for: 0, on: screen)))  // A: wrong
        _ = await screen.handle(.key(.enter))
        #expect(draw(screen).contains(" ✗ Not quite"))
        _ = await screen.handle(.key(.enter))  // Enter grades as suggested: again
        await screen.settle()
        let done = draw(screen)
        #expect(done.contains { $0.contains("All done for now: 2 reviewed.") })
        #expect(done.contains { $0.contains("A card in its steps comes back at 12:01") }, "again: in a minute, this session")
        reports.time = Self.tomorrow.adding(seconds: 60)
        let relearn = try await store.reviewDeck(userID: User.demo.id, at: reports.time, limit: 10)
        #expect(relearn.cards.map(\.ref.question) == [0] && relearn.learningCount == 1, "the card graded again, in its steps")
    }

    @Test("--accessible: a card's question has the cursor until a key moves among its choices; after a grade, the next card's question")
    func focusOnTheQuestion() async throws {
        let (screen, _, _) = try await makeSUT(at: Self.tomorrow)
        func focusLine() -> String {
            var canvas = AccessibleCanvas(TextCanvas(size: Size(width: 60, height: 14)))
            screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 0, width: 60, height: 14)))
            return canvas.focus.map { canvas.base.lines[$0.y] } ?? ""
        }
        #expect(focusLine() == " Which one is B?")
        _ = await screen.handle(.key(.down))
        #expect(focusLine().hasPrefix("  2 "), "the highlighted choice once a key moves: \(focusLine())")
        _ = await screen.handle(.char(try digit(for: 1, on: screen)))
        _ = await screen.handle(.key(.enter))
        _ = await screen.handle(.key(.character("g")))
        #expect(focusLine() == " Which one is B?", "the new card's question, not its first choice")
    }

    @Test("Enter with nothing picked answers nothing: it says to pick first, and the store is not written")
    func enterWithNothingPicked() async throws {
        let (screen, store, reports) = try await makeSUT(at: Self.tomorrow)
        #expect(screen.availability(of: ReviewScreen.Keys.answer) == .unavailable(reason: "Pick an answer first"))
        _ = await screen.handle(.key(.down))
        _ = await screen.handle(.key(.enter))
        _ = await screen.handle(.key(.enter))
        _ = await screen.handle(.key(.character("g")))
        await screen.settle()

        #expect(reports.messages == [.error("Pick an answer first"), .error("Pick an answer first")])
        #expect(await writes(store) == 0)
        #expect(screen.viewModel.revealed == nil)
        #expect(draw(screen)[0].hasPrefix(" Review  2 new · 0 learning · 0 due"))
    }

    @Test("the choices keep their order through redraws, resizes and a new day while the card shows")
    func orderIsStable() async throws {
        let (screen, _, reports) = try await makeSUT(at: Self.tomorrow)
        let first = draw(screen).filter { $0.contains("○") }
        _ = draw(screen, width: 30, height: 10)
        reports.time = StudyTime(noonOf: Self.day.adding(days: 9), secondsFromGMT: 0)
        #expect(draw(screen).filter { $0.contains("○") } == first)
    }

    @Test(
        "news of a review elsewhere: the card in front stays, half answered, while still due; reviewed elsewhere, it stays, says so and takes nothing until Space"
    )
    func reviewedElsewhere() async throws {
        let changes = Notices<Void>()
        let tomorrow = Self.tomorrow
        let (screen, store, _) = try await makeSUT(at: tomorrow, changes: changes)
        let front = try #require(screen.viewModel.card?.ref)
        let other = QuestionRef(courseID: "learn", lesson: 1, question: front.question == 0 ? 1 : 0)
        _ = await screen.handle(.char(try digit(for: 1, on: screen)))
        _ = await screen.handle(.key(.enter))
        #expect(draw(screen).contains(" ✓ Right"))

        // Another terminal reviews the other card: this one stays as it is, the count goes down.
        _ = try await store.review(other, grade: .easy, userID: User.demo.id, at: tomorrow)
        changes.post(())
        await screen.settle()
        let kept = draw(screen)
        #expect(kept[0].hasPrefix(" Review  1 new · 0 learning · 0 due"))
        #expect(kept.contains(" ✓ Right"), "the answer shown stays")

        // Then it reviews this one too: it stays on screen, and says so.
        _ = try await store.review(front, grade: .easy, userID: User.demo.id, at: tomorrow)
        changes.post(())
        await screen.settle()
        let marked = draw(screen)
        #expect(marked[0].hasPrefix(" Review  0 new · 0 learning · 0 due"))
        #expect(marked.contains(" ✓ Right"))
        #expect(marked.contains { $0.contains("Reviewed in another terminal — Space for the next card") })
        let reason = LocalizedText("Reviewed in another terminal — Space for the next card")
        #expect(screen.availability(of: ReviewScreen.Keys.good) == .unavailable(reason: reason))
        let before = await writes(store)
        _ = await screen.handle(.key(.character("g")))
        _ = await screen.handle(.key(.enter))
        #expect(await writes(store) == before, "no grade for a card reviewed elsewhere")

        _ = await screen.handle(.char(" "))
        await screen.settle()
        #expect(draw(screen).contains { $0.contains("Nothing to review today") })
    }

    @Test("a card not yet answered, reviewed elsewhere: it stays unanswered and takes no pick and no Enter")
    func openCardReviewedElsewhere() async throws {
        let changes = Notices<Void>()
        let tomorrow = Self.tomorrow
        let (screen, store, _) = try await makeSUT(at: tomorrow, changes: changes)
        let shown = try #require(screen.viewModel.card?.ref)
        _ = await screen.handle(.char(try digit(for: 2, on: screen)))
        _ = try await store.review(shown, grade: .easy, userID: User.demo.id, at: tomorrow)
        changes.post(())
        await screen.settle()

        #expect(screen.viewModel.card?.ref == shown, "the card picked stays in front")
        _ = await screen.handle(.key(.enter))
        #expect(screen.viewModel.revealed == nil)
        _ = await screen.handle(.char(" "))
        #expect(screen.viewModel.card?.ref != shown && screen.viewModel.card != nil, "Space: the next card, nothing picked")
        #expect(screen.viewModel.picked.isEmpty)
        #expect(await writes(store) == 1, "only the other terminal's review")
    }

    @Test("a grade that cannot be saved keeps the card and says why")
    func failedGrade() async throws {
        let (screen, store, reports) = try await makeSUT(at: Self.tomorrow)
        _ = await screen.handle(.char("1"))
        _ = await screen.handle(.key(.enter))
        await store.setFailure(.storage(.saving, detail: "disk"))
        _ = await screen.handle(.key(.character("a")))
        #expect(reports.messages == [.error("Something went wrong while saving your data.")])
        #expect(draw(screen)[0].hasPrefix(" Review  2 new · 0 learning · 0 due"))
    }
}

/// What a model reported, in order.
@MainActor
final class Reports {
    var messages: [StatusMessage] = []
    /// The time the screen is told it is, where a test moves it.
    var time = ReviewScreenTests.answered
}
