import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import Review

@Suite("Review: undo, the learner's settings and the memory picture")
@MainActor
struct ReviewUndoMemoryTests {
    let base = ReviewScreenTests()

    /// Answers the card in front right and grades it `grade` with its key.
    func gradeFront(_ screen: ReviewScreen, _ grade: Character) async throws {
        let card = try #require(screen.viewModel.card)
        _ = await screen.handle(.char(try base.digit(for: card.question.correct.first ?? 0, on: screen)))
        _ = await screen.handle(.key(.enter))
        _ = await screen.handle(.key(.character(grade)))
        await screen.settle()
    }

    @Test("z takes back the last grade: the card returns to the front, unanswered, as it was; then the one before; then nothing")
    func undoesTheLastGrades() async throws {
        let (screen, store, reports) = try await base.makeSUT(at: ReviewScreenTests.tomorrow)
        #expect(screen.availability(of: ReviewScreen.Keys.undo) == .unavailable(reason: "No grade to undo in this session"))
        let firstCard = try #require(screen.viewModel.card)
        try await gradeFront(screen, "g")
        let secondCard = try #require(screen.viewModel.card)
        #expect(secondCard.ref != firstCard.ref)
        try await gradeFront(screen, "e")
        #expect(screen.viewModel.card == nil, "all done")

        _ = await screen.handle(.key(.character("z")))
        await screen.settle()
        #expect(screen.viewModel.card?.ref == secondCard.ref, "the last graded card is back in front")
        #expect(screen.viewModel.card?.schedule == secondCard.schedule, "as it was before its grade")
        #expect(screen.viewModel.revealed == nil && screen.viewModel.picked.isEmpty, "to be answered again")
        #expect(reports.messages.last == .success("Grade undone — answer the card again"))
        #expect(base.draw(screen)[0].hasPrefix(" Review  1 new · 0 learning · 0 due · 1 reviewed"), "counted again")

        _ = await screen.handle(.key(.character("z")))
        await screen.settle()
        #expect(screen.viewModel.card?.ref == firstCard.ref, "then the grade before it")
        #expect(base.draw(screen)[0].hasPrefix(" Review  2 new · 0 learning · 0 due"))
        #expect(await store.reviewLog[User.demo.id] ?? [] == [], "both grades out of the log")
        #expect(screen.availability(of: ReviewScreen.Keys.undo) == .unavailable(reason: "No grade to undo in this session"))
        #expect(await screen.handle(.key(.character("z"))) == .ignored, "nothing left to take back: the shell says why")
    }

    @Test("a grade changed in another terminal is not undone here: it says so, and the next z goes on to the grade before")
    func undoneElsewhere() async throws {
        let (screen, store, reports) = try await base.makeSUT(at: ReviewScreenTests.tomorrow)
        let firstCard = try #require(screen.viewModel.card)
        try await gradeFront(screen, "g")
        // Another terminal takes the grade back first.
        _ = try await store.undoReview(firstCard.ref, reviewedAt: ReviewScreenTests.tomorrow.now, userID: User.demo.id)
        let writes = await store.messages.count
        _ = await screen.handle(.key(.character("z")))
        await screen.settle()
        #expect(reports.messages.last == .error(AppError.nothingToUndo(firstCard.ref).userMessage))
        #expect(screen.viewModel.graded.isEmpty, "that grade is no longer this session's to undo")
        #expect(await store.messages.count == writes + 1, "one call, refused, nothing more")
    }

    @Test("a grade is one store call, and the next card's frame needs none (the deck in hand is used)")
    func gradeCost() async throws {
        let (screen, store, _) = try await base.makeSUT(at: ReviewScreenTests.tomorrow)
        _ = await screen.handle(.char(try base.digit(for: 1, on: screen)))
        _ = await screen.handle(.key(.enter))
        let before = await store.messages.count
        _ = await screen.handle(.key(.character("g")))
        _ = base.draw(screen)
        let calls = await store.messages.dropFirst(before)
        #expect(calls.count == 1, "\(Array(calls))")
        if case .review = calls.first {} else { Issue.record("the call is the review: \(Array(calls))") }
    }

    @Test("a grade the store refuses as not due (graded elsewhere before the news came) counts nothing and says so")
    func gradedElsewhereFirst() async throws {
        let (screen, store, _) = try await base.makeSUT(at: ReviewScreenTests.tomorrow)
        let card = try #require(screen.viewModel.card)
        _ = await screen.handle(.char(try base.digit(for: 1, on: screen)))
        _ = await screen.handle(.key(.enter))
        // Another terminal grades it; this one has not heard yet.
        _ = try await store.review(card.ref, grade: .easy, userID: User.demo.id, at: ReviewScreenTests.tomorrow)
        _ = await screen.handle(.key(.character("g")))
        await screen.settle()
        #expect(screen.viewModel.reviewedElsewhere && screen.viewModel.card?.ref == card.ref, "the card stays, marked")
        #expect(screen.viewModel.reviewedToday == 0 && screen.viewModel.graded.isEmpty, "nothing counted, nothing to undo")
        #expect(base.draw(screen).contains { $0.contains("Reviewed in another terminal — Space for the next card") })
        #expect(await store.reviewLog[User.demo.id]?.map(\.grade) == [.easy], "only the other terminal's grade")
    }

    @Test("news that comes while a grade is saved is read once it is: the other terminal's grade shows in the counts")
    func newsWhileSaving() async throws {
        let changes = Notices<Void>()
        let (screen, store, _) = try await base.makeSUT(at: ReviewScreenTests.tomorrow, changes: changes)
        let card = try #require(screen.viewModel.card)
        _ = await screen.handle(.char(try base.digit(for: 1, on: screen)))
        _ = await screen.handle(.key(.enter))
        let gate = Gate()
        await store.setGate(gate, only: { if case .review = $0 { true } else { false } })
        async let grading = screen.handle(.key(.character("g")))
        await gate.waitForArrivals(1)
        // Another terminal grades the same card while this grade is held, and its news comes.
        await store.setGate(nil)
        _ = try await store.review(card.ref, grade: .easy, userID: User.demo.id, at: ReviewScreenTests.tomorrow)
        changes.post(())
        await screen.settle()
        await gate.open()
        _ = await grading
        await screen.settle()
        #expect(screen.viewModel.reviewedElsewhere, "this grade was refused: the card was not due any more")
        #expect(base.draw(screen)[0].hasPrefix(" Review  1 new · 0 learning · 0 due"), "the counts as the store has them")
    }

    @Test("the grade keys say the intervals of the learner's settings, and the grade is scheduled by them")
    func settingsSchedule() async throws {
        let store = InMemoryStore(courses: [ReviewScreenTests.course], lessons: ["learn": ReviewScreenTests.lessons])
        _ = try await store.enroll(userID: User.demo.id, courseID: "learn")
        let settings = try ReviewSettings(retention: 0.8, learningSteps: [120, 1_800], relearningSteps: [300])
        let ref = QuestionRef(courseID: "learn", lesson: 1, question: 0)
        _ = try await store.answer([2], to: ref, userID: User.demo.id, at: ReviewScreenTests.answered, settings: settings)
        let at = ReviewScreenTests.answered.adding(seconds: 120)
        let screen = ReviewScreen(
            viewModel: ReviewViewModel(learner: User.demo.id, learning: store, time: { at }, settings: { settings }, report: { _ in }))
        screen.appear()
        await screen.settle()
        #expect(screen.viewModel.card?.ref == ref, "missed: back after the settings' first step, 2 minutes")
        _ = await screen.handle(.char(try base.digit(for: 1, on: screen)))
        _ = await screen.handle(.key(.enter))
        #expect(screen.footerLabel(of: ReviewScreen.Keys.again) == "again \(IntervalText.format(seconds: 120))")
        #expect(screen.footerLabel(of: ReviewScreen.Keys.good) == "good \(IntervalText.format(seconds: 1_800))", "the next step")
        _ = await screen.handle(.key(.character("g")))
        await screen.settle()
        let deck = try await store.reviewDeck(userID: User.demo.id, at: at, limit: 10)
        #expect(deck.comingBack == at.now.addingTimeInterval(1_800), "scheduled by the same settings: the next step")
    }

    @Test("m shows the memory picture in place of the card, and again the card; with nothing due it shows by itself")
    func memoryPicture() async throws {
        let (screen, _, _) = try await base.makeSUT(at: ReviewScreenTests.tomorrow)
        #expect(!base.draw(screen, width: 80, height: 20).contains { $0.contains("Your memory") })
        _ = await screen.handle(.key(.character("m")))
        await screen.settle()
        let picture = base.draw(screen, width: 80, height: 20)
        #expect(picture.contains { $0.contains("m: back to the card") })
        #expect(picture.contains(" Your memory"))
        #expect(picture.contains(" Cards due in the next 14 days"))
        #expect(picture.contains { $0.hasPrefix(" ███") }, "today's bar, the tallest, reaches the top row")
        #expect(picture.contains { $0.hasPrefix(" 2   0   0") }, "the count under each day")
        #expect(picture.contains { $0.hasPrefix(" today") && $0.hasSuffix("+13 d") })
        #expect(picture.contains(" True retention, last 30 days: — no card in review graded yet"))
        #expect(picture.contains { $0.hasPrefix(" Reviews today: 0 · Streak: 1 day") })
        #expect(await screen.handle(.key(.enter)) == .ignored, "no answer while the picture shows")

        _ = await screen.handle(.key(.character("m")))
        #expect(base.draw(screen, width: 80, height: 20).contains(" Which one is B?"), "the card again")

        try await gradeFront(screen, "e")
        try await gradeFront(screen, "e")
        let done = base.draw(screen, width: 80, height: 24)
        #expect(done.contains { $0.contains("All done for now: 2 reviewed.") })
        #expect(done.contains(" Your memory"), "nothing due: the picture shows by itself")
        #expect(done.contains { $0.hasPrefix(" Reviews today: 2") })
    }

    @Test("in the accessible mode the forecast is a sentence of numbers, with no block characters")
    func accessibleForecast() async throws {
        let (screen, _, _) = try await base.makeSUT(at: ReviewScreenTests.tomorrow)
        _ = await screen.handle(.key(.character("m")))
        await screen.settle()
        var canvas = AccessibleCanvas(TextCanvas(size: Size(width: 80, height: 20)))
        screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 0, width: 80, height: 20)))
        let lines = canvas.base.lines
        #expect(lines.contains { $0.contains("Cards due: today 2, tomorrow 0, then 0, 0, 0") })
        #expect(!lines.joined().contains { MemoryView.eighths.dropFirst().contains($0) })
    }

    @Test("the bars: scaled to the busiest day, at least an eighth for any card; counts in three cells")
    func bars() {
        #expect(MemoryView.short(7) == "7" && MemoryView.short(999) == "999" && MemoryView.short(12_345) == "12k")
        #expect(MemoryView.short(5_000_000) == "99k")
        var canvas = TextCanvas(size: Size(width: 60, height: 12))
        let picture = MemoryPicture(forecast: [8, 1, 0, 4] + Array(repeating: 0, count: 10), recalled: 9, reviewed: 10, reviewsToday: 3)
        MemoryView.draw((picture, 4), in: &canvas, area: Rect(x: 0, y: 0, width: 60, height: 12), texts: .english)
        let lines = canvas.lines
        #expect(lines[2] == "███", "the top row: only the busiest day")
        #expect(lines[4].hasPrefix("███         ███"), "4 of 8: half the height")
        #expect(lines[5].hasPrefix("███ ▄▄▄     ███"), "1 of 8: half a row of four")
        var small = TextCanvas(size: Size(width: 60, height: 12))
        let tiny = MemoryPicture(forecast: [1_000, 1] + Array(repeating: 0, count: 12), recalled: 0, reviewed: 0, reviewsToday: 0)
        MemoryView.draw((tiny, nil), in: &small, area: Rect(x: 0, y: 0, width: 60, height: 12), texts: .english)
        #expect(small.lines[5].hasPrefix("███ ▁▁▁"), "a day with a card is never drawn empty")
        #expect(small.lines[6].hasPrefix("1k  1"))
        #expect(lines.contains("True retention, last 30 days: 90% (9 of 10 recalled)"))
        #expect(lines.contains("Reviews today: 3 · Streak: 4 days in a row"))
        // Spanish: 90 %, and the participle agrees with the cards recalled.
        let spanish = Texts(.spanish)
        #expect(spanish(MemoryView.retention(picture)) == "Retención real de los últimos 30 días: 90 % (recordadas 9 de 10)")
        let one = MemoryPicture(forecast: Array(repeating: 0, count: 14), recalled: 1, reviewed: 1, reviewsToday: 1)
        #expect(spanish(MemoryView.retention(one)) == "Retención real de los últimos 30 días: 100 % (recordada 1 de 1)")
    }
}
