import Foundation
import SharedKernel
import Testing

/// The review deck's schedule: FSRS-6 over cards answered in lessons (the scheduler itself is
/// checked against py-fsrs in FSRSAgreementTests), learner days and instants, and streaks.
@Suite("Review: schedules, learner days and streaks")
struct ReviewSchedulingTests {
    let day = LearnerDay(iso: "2026-11-24")!
    let user = UserID(1)
    let ref = QuestionRef(courseID: "c", lesson: 1, question: 0)
    static let question = Question(prompt: "Which?", choices: ["A", "B"], correct: [1], explanation: "B.")

    func answered(right: Bool, at time: StudyTime) throws -> CardSchedule {
        let decided = try LearningRules.answer(
            right ? [1] : [0], to: ref, question: Self.question, holdsPlace: true, existing: nil, userID: user, time: time)
        return try #require(decided.newCard)
    }

    @Test("a first answer is the card's first review: right is good (10 minutes), wrong is again (1 minute); new to review")
    func firstAnswer() throws {
        #expect(ReviewGrade.firstAnswer(isRight: true) == .good)
        #expect(ReviewGrade.firstAnswer(isRight: false) == .again)
        let time = StudyTime(noonOf: day, secondsFromGMT: 3_600)
        let right = try answered(right: true, at: time)
        let wrong = try answered(right: false, at: time)
        #expect(right.card.due == time.now.addingTimeInterval(600) && right.card.state == .learning && right.card.step == 1)
        #expect(wrong.card.due == time.now.addingTimeInterval(60) && wrong.card.step == 0)
        #expect(right.part == .new && wrong.part == .new)
        #expect(!right.isDue(at: time) && right.isDue(at: time.adding(seconds: 600)))
    }

    @Test("a review writes the card before it to the log, counts the grade, and refuses a card not due")
    func review() throws {
        let time = StudyTime(noonOf: day, secondsFromGMT: 0)
        let card = try answered(right: true, at: time)
        #expect(throws: AppError.notDue(ref), "not due yet") {
            try LearningRules.review(card, grade: .good, ref: ref, userID: user, time: time)
        }
        let later = time.adding(seconds: 600)
        let (next, log) = try LearningRules.review(card, grade: .good, ref: ref, userID: user, time: later)
        #expect(next.reviews == 1 && next.card.state == .review && next.part == .due)
        #expect(log == ReviewLogEntry(ref: ref, grade: .good, reviewedAt: later.now, before: card))
        #expect(throws: AppError.noSuchLesson("c", 1)) { try LearningRules.review(nil, grade: .good, ref: ref, userID: user, time: later) }
    }

    @Test("the same learner, card and instant give the same fuzz in every store; another instant may not")
    func fuzzIsTheStores() throws {
        var a = LearningRules.fuzz(ref, userID: user, at: StudyTime(noonOf: day, secondsFromGMT: 0))
        var b = LearningRules.fuzz(ref, userID: user, at: StudyTime(noonOf: day, secondsFromGMT: 0))
        #expect(a.next() == b.next())
        var other = LearningRules.fuzz(ref, userID: UserID(2), at: StudyTime(noonOf: day, secondsFromGMT: 0))
        #expect(a.next() != other.next())
    }

    @Test("the deck counts new, learning and due cards, and when the next card in its steps comes back today")
    func deckCounts() throws {
        let time = StudyTime(noonOf: day, secondsFromGMT: 0)
        let new = try answered(right: false, at: time.adding(seconds: -120))
        let learning = CardSchedule(
            card: FSRSCard(state: .relearning, step: 0, stability: 2, difficulty: 5, due: time.now, lastReview: nil), reviews: 3)
        let later = CardSchedule(
            card: FSRSCard(state: .learning, step: 1, stability: 2, difficulty: 5, due: time.now.addingTimeInterval(300), lastReview: nil),
            reviews: 1)
        let due = CardSchedule(
            card: FSRSCard(
                state: .review, step: nil, stability: 9, difficulty: 5, due: time.dayEnd.addingTimeInterval(-1), lastReview: nil),
            reviews: 2)
        let tomorrow = CardSchedule(
            card: FSRSCard(state: .review, step: nil, stability: 9, difficulty: 5, due: time.dayEnd, lastReview: nil), reviews: 2)

        let deck = ReviewDeck(cards: [], counting: [new, learning, later, due, tomorrow], at: time)
        #expect([deck.newCount, deck.learningCount, deck.dueCount, deck.total] as [Int] == [1, 1, 1, 3])
        #expect(deck.comingBack == time.now.addingTimeInterval(300))
    }

    @Test("StudyTime: whole seconds, the learner's day and the instant it ends, east and west of UTC")
    func studyTime() {
        let time = StudyTime(now: Date(timeIntervalSince1970: 1_764_000_000.75), secondsFromGMT: -18_000)
        #expect(time.now.timeIntervalSince1970 == 1_764_000_000)
        #expect(StudyTime.end(of: day, secondsFromGMT: 0) == Date(timeIntervalSince1970: Double(20_782 * 86_400)))
        #expect(StudyTime.end(of: day, secondsFromGMT: 3_600) == Date(timeIntervalSince1970: Double(20_782 * 86_400 - 3_600)))
        #expect(StudyTime(noonOf: day, secondsFromGMT: -18_000).day == day)
        #expect(StudyTime(noonOf: day, secondsFromGMT: 50_400).day == day)
    }

    @Test("an SM-2 card carries over as Anki maps it: due at noon UTC of its day, in review, not new to review")
    func fromSM2() {
        let card = CardSchedule.fromSM2(repetitions: 3, easeMillis: 2_500, intervalDays: 15, dueDay: day)
        #expect(card.card.due == Date(timeIntervalSince1970: Double(20_781 * 86_400 + 43_200)))
        #expect(card.card.state == .review && card.reviews == 1)
        #expect(abs((card.card.stability ?? 0) - 15) < 1e-9, "at 90 % retention, stability is the interval")
        let never = CardSchedule.fromSM2(repetitions: 0, easeMillis: 2_500, intervalDays: 0, dueDay: day)
        #expect(never.card.state == .learning && never.card.due == card.card.due)
    }

    @Test(
        "stored or received values make a schedule only when FSRS can work with them",
        arguments: [
            (2, nil, 3.0, 5.0, true), (1, 0, nil, nil, true), (4, nil, 3.0, 5.0, false), (2, 0, 3.0, 5.0, false), (1, nil, 3.0, 5.0, false),
            (2, nil, 3.0, nil, false), (2, nil, -1.0, 5.0, false), (2, nil, Double.nan, 5.0, false), (2, nil, 3.0, 11.0, false),
        ] as [(Int, Int?, Double?, Double?, Bool)])
    func checked(state: Int, step: Int?, stability: Double?, difficulty: Double?, makesOne: Bool) {
        let made = CardSchedule.checked(
            state: state, step: step, stability: stability, difficulty: difficulty, dueSeconds: 1_764_000_000, lastReviewSeconds: nil,
            reviews: 1)
        #expect((made != nil) == makesOne)
        #expect(
            CardSchedule.checked(
                state: 2, step: nil, stability: 3, difficulty: 5, dueSeconds: CardSchedule.instants.upperBound + 1, lastReviewSeconds: nil,
                reviews: 1) == nil)
    }

    @Test(
        "days: ISO dates both ways, counted from 1970-01-01",
        arguments: [("1970-01-01", 0), ("2000-03-01", 11_017), ("2026-11-24", 20_781), ("0001-01-01", -719_162), ("9999-12-31", 2_932_896)])
    func isoDays(_ text: String, _ number: Int) {
        #expect(LearnerDay(iso: text)?.number == number)
        #expect(LearnerDay(number: number).iso == text)
    }

    @Test(
        "a day that does not exist, or is not YYYY-MM-DD, is refused",
        arguments: ["2026-02-29", "2026-13-01", "2026-1-01", "26-11-24", "2026-11-24T00", "", "0000-01-01", "２026-11-24"])
    func badDays(_ text: String) {
        #expect(LearnerDay(iso: text) == nil)
    }

    @Test("2024-02-29 exists; a time east or west of UTC falls on its own calendar day")
    func zones() {
        #expect(LearnerDay(iso: "2024-02-29") != nil)
        let late = Date(timeIntervalSince1970: Double(20_781 * 86_400 + 23 * 3_600))  // 23:00 UTC on 24 Nov 2026
        #expect(LearnerDay(late, secondsFromGMT: 0).iso == "2026-11-24")
        #expect(LearnerDay(late, secondsFromGMT: 3_600).iso == "2026-11-25")
        #expect(LearnerDay(Date(timeIntervalSince1970: Double(20_781 * 86_400 + 3_600)), secondsFromGMT: -7_200).iso == "2026-11-23")
        #expect(LearnerDay(day.noon(secondsFromGMT: -18_000), secondsFromGMT: -18_000) == day)
    }

    @Test("a streak: days in a row up to today, or up to yesterday while today is open")
    func streaks() {
        let days = Set([-4, -2, -1].map { day.adding(days: $0) })
        #expect(LearningHabit.streak(activeDays: days, today: day) == 2)
        #expect(LearningHabit.streak(activeDays: days.union([day]), today: day) == 3)
        #expect(LearningHabit.streak(activeDays: days, today: day.adding(days: 1)) == 0)
        #expect(LearningHabit.streak(activeDays: [], today: day) == 0)
    }
}
