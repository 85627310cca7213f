import Foundation
import SharedKernel

// MARK: - LearningRepository: undo, settings and the memory picture

extension ContractCase {
    static let learningUndoAndMemory: [ContractCase] = [
        ContractCase(
            port: "learning",
            name: "undo takes back the card's last grade: the card as before, the grade out of the log; anything else is nothing to undo"
        ) {
            store in
            let (learning, user, time) = try await LearningFixture.arrange(store)
            let first = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            let second = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 1)
            _ = try await learning.answer([1], to: first, userID: user, at: time)
            _ = try await learning.answer([0, 2], to: second, userID: user, at: time)
            let at = time.adding(seconds: 600)
            let before = try await learning.reviewDeck(userID: user, at: at, limit: 10).cards.first { $0.ref == first }?.schedule
            let log = store.changes
            let start = try await log?.newestChangeID()

            let missed = try await learning.review(first, grade: .again, userID: user, at: at)
            try check(missed != before, "again moved the card")
            try await checkThrows(.nothingToUndo(first)) { () async throws(AppError) in
                try await learning.undoReview(first, reviewedAt: at.now.addingTimeInterval(1), userID: user)
            }
            try await checkThrows(.nothingToUndo(second)) { () async throws(AppError) in
                try await learning.undoReview(second, reviewedAt: at.now, userID: user)
            }
            let elsewhere = QuestionRef(courseID: "no-such-course", lesson: 1, question: 0)
            try await checkThrows(.nothingToUndo(elsewhere)) { () async throws(AppError) in
                try await learning.undoReview(elsewhere, reviewedAt: at.now, userID: user)
            }
            let restored = try await learning.undoReview(first, reviewedAt: at.now, userID: user)
            try checkEqual(restored, before, "the card as it was before the grade")
            let deck = try await learning.reviewDeck(userID: user, at: at, limit: 10)
            try checkEqual(deck.cards.first { $0.ref == first }?.schedule, before, "due again, as before")
            try checkEqual(deck.newCount, 2, "counted as new again")
            try await checkThrows(.nothingToUndo(first)) { () async throws(AppError) in
                try await learning.undoReview(first, reviewedAt: at.now, userID: user)
            }
            try checkEqual(
                try await learning.memory(userID: user, at: at).reviewsToday, 0, "the grade left the log")

            // Graded twice: only the last grade can be taken back, and then the first.
            let good = try await learning.review(first, grade: .hard, userID: user, at: at)
            let later = StudyTime(now: max(good.card.due, at.now), secondsFromGMT: 0)
            let easy = try await learning.review(first, grade: .easy, userID: user, at: later)
            try check(easy != good, "the second grade moved the card")
            try await checkThrows(.nothingToUndo(first)) { () async throws(AppError) in
                try await learning.undoReview(first, reviewedAt: at.now, userID: user)
            }
            try checkEqual(try await learning.undoReview(first, reviewedAt: later.now, userID: user), good, "the second grade undone")
            try checkEqual(try await learning.undoReview(first, reviewedAt: at.now, userID: user), before, "then the first")
            if let log, let start {
                try checkEqual(
                    try await Contract.events(log, after: start, for: user).map(\.change),
                    Array(repeating: .learning(user, nil), count: 6), "each of three reviews and three undos is noted")
            }
        },
        ContractCase(port: "learning", name: "the learner's settings schedule: steps, retention, and each grade's interval in the deck") {
            store in
            let (learning, user, time) = try await LearningFixture.arrange(store)
            let first = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            let second = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 1)
            let settings = try ReviewSettings(retention: 0.8, learningSteps: [120], relearningSteps: [300, 900])
            _ = try await learning.answer([1], to: first, userID: user, at: time, settings: settings)
            _ = try await learning.answer([0], to: second, userID: user, at: time, settings: settings)
            let deck = try await learning.reviewDeck(userID: user, at: time.adding(seconds: 120), limit: 10, settings: settings)
            try checkEqual(deck.cards.map(\.ref), [second], "missed: back after its one learning step of 2 minutes")
            let right = try await learning.reviewDeck(userID: user, at: time, limit: 10, settings: settings).comingBack
            try checkEqual(right, time.now.addingTimeInterval(120), "the first comes back on its step too")
            guard let card = deck.cards.first else { throw ContractFailure(description: "no card") }
            let at = time.adding(seconds: 120)
            let expected = settings.intervals(for: card.schedule.card, at: at.now)
            try checkEqual(
                card.intervals.mapValues { $0.rounded(.down) }, expected.mapValues { $0.rounded(.down) },
                "each grade's interval, by the settings")
            let graded = try await learning.review(second, grade: .good, userID: user, at: at, settings: settings)
            let rules = try LearningRules.review(card.schedule, grade: .good, ref: second, userID: user, time: at, settings: settings)
            try checkEqual(graded, rules.schedule, "graded by the settings' scheduler")
            let byDefault = try LearningRules.review(card.schedule, grade: .good, ref: second, userID: user, time: at)
            try check(graded != byDefault.schedule, "which is not the default's")
        },
        ContractCase(port: "learning", name: "the memory picture: 14 days of cards due by the learner's day, true retention, reviews today")
        {
            store in
            let (learning, user, time) = try await LearningFixture.arrange(store)
            let first = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            let second = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 1)
            let empty = try await learning.memory(userID: user, at: time)
            try checkEqual(
                empty, MemoryPicture(forecast: Array(repeating: 0, count: 14), recalled: 0, reviewed: 0, reviewsToday: 0), "none")
            _ = try await learning.answer([1], to: first, userID: user, at: time)
            _ = try await learning.answer([0], to: second, userID: user, at: time)
            let answered = try await learning.memory(userID: user, at: time)
            try checkEqual(answered.forecast.first, 2, "both due today, in their steps")
            try checkEqual(answered.reviewsToday, 0, "an answer is not a review")

            let at = time.adding(seconds: 600)
            let easy = try await learning.review(first, grade: .easy, userID: user, at: at)
            let good = try await learning.review(second, grade: .easy, userID: user, at: at)
            // Ten hours west of UTC: the days are the learner's.
            let west = StudyTime(now: at.now, secondsFromGMT: -36_000)
            let picture = try await learning.memory(userID: user, at: west)
            var expected = Array(repeating: 0, count: 14)
            for schedule in [easy, good] {
                let day = LearnerDay(schedule.card.due, secondsFromGMT: -36_000).number - west.day.number
                if day < 14 { expected[max(0, day)] += 1 }
            }
            try checkEqual(picture.forecast, expected, "each card on the learner's day it falls due")
            try checkEqual([picture.reviewsToday, picture.reviewed], [2, 0], "two reviews today, of cards in their steps")
            try check(easy.card.state == .review && good.card.state == .review, "both in review now")
            try checkEqual(
                try await learning.memory(userID: user, at: at), picture.withDays(of: at, from: [easy, good]),
                "the same picture at UTC, by the same rule")

            // On the first card's day: recalled once (hard), forgotten once (again).
            let dueDay = StudyTime(now: max(easy.card.due, good.card.due), secondsFromGMT: 0)
            _ = try await learning.review(first, grade: .hard, userID: user, at: dueDay)
            _ = try await learning.review(second, grade: .again, userID: user, at: dueDay)
            let reviewed = try await learning.memory(userID: user, at: dueDay)
            try checkEqual([reviewed.recalled, reviewed.reviewed, reviewed.reviewsToday], [1, 2, 2], "one of two recalled, today")
            try checkEqual(reviewed.forecast.first, 1, "the forgotten one is due again today")
            let monthOn = try await learning.memory(userID: user, at: dueDay.adding(seconds: 31 * 86_400))
            try checkEqual([monthOn.recalled, monthOn.reviewed, monthOn.reviewsToday], [0, 0, 0], "the last 30 days only")
        },
    ]
}

extension MemoryPicture {
    /// This picture with its forecast worked out again for `time` from `schedules`.
    fileprivate func withDays(of time: StudyTime, from schedules: [CardSchedule]) -> MemoryPicture {
        var copy = self
        copy.forecast = MemoryPicture(schedules: schedules, log: [ReviewLogEntry](), at: time).forecast
        return copy
    }
}
