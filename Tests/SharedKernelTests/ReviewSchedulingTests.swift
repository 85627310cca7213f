import Foundation
import SharedKernel
import Testing

/// SM-2 as Woźniak published it (and Wikipedia's "SuperMemo" article restates it): the
/// intervals 1, 6, then the last × EF; EF' = EF + (0.1 − (5 − q)(0.08 + (5 − q)·0.02)).
@Suite("Review: SM-2, learner days and streaks")
struct ReviewSchedulingTests {
    let day = LearnerDay(iso: "2026-11-24")!

    func run(_ grades: [ReviewGrade]) -> [CardSchedule] {
        var card = CardSchedule.new(on: day)
        var seen: [CardSchedule] = []
        for grade in grades {
            card = card.reviewed(grade, on: card.due)
            seen.append(card)
        }
        return seen
    }

    @Test("the E-Factor moves by the published amounts for each quality of response")
    func easeSteps() {
        // q = 5: +0.10, 4: ±0, 3: −0.14, 1: −0.54 (the published table).
        let steps = ReviewGrade.allCases.map { CardSchedule.new(on: day).reviewed($0, on: day).easeMillis - 2_500 }
        #expect(steps == [-540, -140, 0, 100])
    }

    @Test("good every time: 1, 6, 15, 38 days (6 × 2.5 = 15, 15 × 2.5 = 37.5 → 38)")
    func goodIntervals() {
        let cards = run([.good, .good, .good, .good])
        #expect(cards.map(\.intervalDays) == [1, 6, 15, 38])
        #expect(cards.map(\.repetitions) == [1, 2, 3, 4])
        #expect(cards.last?.due == day.adding(days: 1 + 6 + 15 + 38))
    }

    @Test("easy every time: EF 2.6, 2.7, 2.8, and the third interval is 6 × 2.7 = 16.2 → 16")
    func easyIntervals() {
        let cards = run([.easy, .easy, .easy])
        #expect(cards.map(\.easeMillis) == [2_600, 2_700, 2_800])
        #expect(cards.map(\.intervalDays) == [1, 6, 16])
    }

    @Test("a lapse starts the repetitions again at one day and lowers EF, never below 1.3")
    func lapses() {
        let cards = run([.good, .good, .again])
        #expect(cards.last == CardSchedule(repetitions: 0, easeMillis: 1_960, intervalDays: 1, due: cards[1].due.adding(days: 1)))
        let worn = run(Array(repeating: .again, count: 6))
        #expect(worn.map(\.easeMillis) == [1_960, 1_420, 1_300, 1_300, 1_300, 1_300])
        #expect(run([.again, .good, .good]).map(\.intervalDays) == [1, 1, 6])
    }

    @Test("hard: recalled, but EF falls 0.14 each time")
    func hard() {
        let cards = run([.hard, .hard, .hard])
        #expect(cards.map(\.easeMillis) == [2_360, 2_220, 2_080])
        #expect(cards.map(\.intervalDays) == [1, 6, 13])  // 6 × 2.22 = 13.32
    }

    @Test("a first answer: right is good, wrong is again; both are due the next day")
    func firstAnswer() {
        #expect(ReviewGrade.firstAnswer(isRight: true) == .good)
        #expect(ReviewGrade.firstAnswer(isRight: false) == .again)
        #expect(CardSchedule.new(on: day).reviewed(.firstAnswer(isRight: false), on: day).due == day.adding(days: 1))
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
