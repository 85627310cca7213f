/// How well the learner recalled a card: the four answers of the review tab.
public enum ReviewGrade: String, CaseIterable, Hashable, Sendable {
    case again, hard, good, easy

    /// SM-2's quality of response (0–5): again is a lapse, hard a right answer with serious
    /// difficulty, good one after some hesitation, easy a perfect one.
    public var quality: Int {
        switch self {
        case .again: 1
        case .hard: 3
        case .good: 4
        case .easy: 5
        }
    }

    /// A question answered in its lesson for the first time: right is good, wrong is again.
    public static func firstAnswer(isRight: Bool) -> ReviewGrade {
        isRight ? .good : .again
    }
}

/// Where a card stands in SuperMemo's SM-2 (P. Woźniak, 1990, as Wikipedia's "SuperMemo"
/// article gives it): repetitions in a row recalled, the easiness factor (in thousandths, so
/// every store keeps it exactly), the last interval, and the day it is due.
public struct CardSchedule: Hashable, Sendable {
    public var repetitions: Int
    /// The E-Factor × 1000; never below 1300.
    public var easeMillis: Int
    public var intervalDays: Int
    public var due: LearnerDay

    public init(repetitions: Int, easeMillis: Int, intervalDays: Int, due: LearnerDay) {
        self.repetitions = repetitions
        self.easeMillis = easeMillis
        self.intervalDays = intervalDays
        self.due = due
    }

    public static let initialEaseMillis = 2_500
    public static let minimumEaseMillis = 1_300

    /// A card seen for the first time on `day`.
    public static func new(on day: LearnerDay) -> CardSchedule {
        CardSchedule(repetitions: 0, easeMillis: initialEaseMillis, intervalDays: 0, due: day)
    }

    /// SM-2 after a response of `grade` on `day`: a recall (quality ≥ 3) moves the interval to
    /// 1, then 6, then the last one × EF (rounded); a lapse starts the repetitions again at 1
    /// day. EF' = EF + (0.1 − (5 − q) × (0.08 + (5 − q) × 0.02)), never below 1.3. The card
    /// is due that many days on, at most 100 years, and never after `LearnerDay.latest`.
    public func reviewed(_ grade: ReviewGrade, on day: LearnerDay) -> CardSchedule {
        let quality = grade.quality
        var next = self
        if quality >= 3 {
            switch repetitions {
            case 0: next.intervalDays = 1
            case 1: next.intervalDays = 6
            // Rounded half up, in whole thousandths: `intervalDays × EF`.
            default: next.intervalDays = max(1, (intervalDays * easeMillis + 500) / 1_000)
            }
            next.repetitions = repetitions + 1
        } else {
            next.repetitions = 0
            next.intervalDays = 1
        }
        let miss = 5 - quality
        // 0.1 − miss × (0.08 + miss × 0.02), in thousandths.
        next.easeMillis = max(Self.minimumEaseMillis, easeMillis + 100 - miss * (80 + miss * 20))
        // Never past the last day a learner's day can be (a review on 9999-12-30 is due on
        // 9999-12-31 at the latest): `due` is always a day the API can write and read back.
        next.due = min(day.adding(days: min(next.intervalDays, 36_500)), .latest)
        return next
    }

    public func isDue(on day: LearnerDay) -> Bool {
        due <= day
    }
}

/// One question of one lesson: a card of the review deck.
public struct QuestionRef: Hashable, Sendable {
    public var courseID: CourseID
    /// The lesson's number, from 1.
    public var lesson: Int
    /// The question's index in the lesson, from 0.
    public var question: Int

    public init(courseID: CourseID, lesson: Int, question: Int) {
        self.courseID = courseID
        self.lesson = lesson
        self.question = question
    }
}

/// A learner's answer to a question in its lesson, with what answering reveals: the right
/// choices and why. The first one puts the card in the deck.
public struct Answer: Hashable, Sendable {
    public var ref: QuestionRef
    public var chosen: Set<Int>
    public var isRight: Bool
    public var correct: Set<Int>
    public var explanation: String

    public init(ref: QuestionRef, chosen: Set<Int>, isRight: Bool, correct: Set<Int>, explanation: String) {
        self.ref = ref
        self.chosen = chosen
        self.isRight = isRight
        self.correct = correct
        self.explanation = explanation
    }

    /// `chosen` as the answer to `question`, checked against it.
    public init(ref: QuestionRef, chosen: Set<Int>, to question: Question) {
        self.init(ref: ref, chosen: chosen, isRight: question.isRight(chosen), correct: question.correct, explanation: question.explanation)
    }
}

/// A card to review: the question with where it comes from, and its schedule.
public struct ReviewCard: Hashable, Sendable {
    public var ref: QuestionRef
    public var courseTitle: String
    public var lessonTitle: String
    public var question: Question
    public var schedule: CardSchedule

    public init(ref: QuestionRef, courseTitle: String, lessonTitle: String, question: Question, schedule: CardSchedule) {
        self.ref = ref
        self.courseTitle = courseTitle
        self.lessonTitle = lessonTitle
        self.question = question
        self.schedule = schedule
    }
}

/// The cards due on a day: the first few to review, and how many there are in all.
public struct ReviewDeck: Hashable, Sendable {
    public var cards: [ReviewCard]
    public var dueCount: Int

    public init(cards: [ReviewCard], dueCount: Int) {
        self.cards = cards
        self.dueCount = dueCount
    }
}

/// What the Profile tab shows of the learner's habit.
public struct LearningHabit: Hashable, Sendable {
    /// Days in a row, up to today (or yesterday while today is still open), with a lesson
    /// done or a card reviewed.
    public var streakDays: Int
    public var dueCount: Int

    public init(streakDays: Int, dueCount: Int) {
        self.streakDays = streakDays
        self.dueCount = dueCount
    }

    /// The streak that ends on `today`, from the days with some learning: today not yet
    /// active does not break it, a missed yesterday does.
    public static func streak(activeDays: Set<LearnerDay>, today: LearnerDay) -> Int {
        var day = activeDays.contains(today) ? today : today.adding(days: -1)
        var count = 0
        while activeDays.contains(day) {
            count += 1
            day = day.adding(days: -1)
        }
        return count
    }
}
