import Foundation

/// How well the learner recalled a card: the four answers of the review tab.
public enum ReviewGrade: String, CaseIterable, Hashable, Sendable {
    case again, hard, good, easy

    /// A question answered in its lesson for the first time: right is good, wrong is again.
    public static func firstAnswer(isRight: Bool) -> ReviewGrade {
        isRight ? .good : .again
    }
}

/// Where a card stands: its FSRS memory and due instant (`FSRSCard`), and how many times it
/// was graded in the review tab (0: answered in its lesson only, new to review).
public struct CardSchedule: Hashable, Sendable {
    public var card: FSRSCard
    public var reviews: Int

    public init(card: FSRSCard, reviews: Int) {
        self.card = card
        self.reviews = reviews
    }

    /// Which count of the deck the card is in.
    public enum Part: Hashable, Sendable {
        /// Answered in its lesson, not graded in review yet.
        case new
        /// In its learning or relearning steps: due at a time of the day.
        case learning
        /// In review: due on a day.
        case due
    }

    public var part: Part {
        if reviews == 0 { return .new }
        return card.state == .review ? .due : .learning
    }

    /// Whether it is to be reviewed at `time`: a card in its steps once its time has come, one
    /// in review on its day.
    public func isDue(at time: StudyTime) -> Bool {
        card.state == .review ? card.due < time.dayEnd : card.due <= time.now
    }
}

/// One grade given in review, with the card as it was before it: what an undo restores, and
/// what the true retention is counted from.
public struct ReviewLogEntry: Hashable, Sendable {
    public var ref: QuestionRef
    public var grade: ReviewGrade
    public var reviewedAt: Date
    public var before: CardSchedule

    public init(ref: QuestionRef, grade: ReviewGrade, reviewedAt: Date, before: CardSchedule) {
        self.ref = ref
        self.grade = grade
        self.reviewedAt = reviewedAt
        self.before = before
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
    /// False for one given offline in remote mode and not yet checked by the server (which
    /// alone knows the right choices): `isRight`, `correct` and `explanation` say nothing yet.
    public var isChecked: Bool

    public init(ref: QuestionRef, chosen: Set<Int>, isRight: Bool, correct: Set<Int>, explanation: String, isChecked: Bool = true) {
        self.ref = ref
        self.chosen = chosen
        self.isRight = isRight
        self.correct = correct
        self.explanation = explanation
        self.isChecked = isChecked
    }

    /// `chosen`, kept to be sent and checked when the server answers again.
    public static func unchecked(_ chosen: Set<Int>, to ref: QuestionRef) -> Answer {
        Answer(ref: ref, chosen: chosen, isRight: false, correct: [], explanation: "", isChecked: false)
    }

    /// `chosen` as the answer to `question`, checked against it.
    public init(ref: QuestionRef, chosen: Set<Int>, to question: Question) {
        self.init(ref: ref, chosen: chosen, isRight: question.isRight(chosen), correct: question.correct, explanation: question.explanation)
    }
}

/// A question's review card as the learner holds it, whatever its due: what a replica needs
/// to review while the server cannot be reached.
public struct CourseCard: Hashable, Sendable {
    public var ref: QuestionRef
    public var schedule: CardSchedule

    public init(ref: QuestionRef, schedule: CardSchedule) {
        self.ref = ref
        self.schedule = schedule
    }
}

/// A card to review: the question with where it comes from, and its schedule.
public struct ReviewCard: Hashable, Sendable {
    public var ref: QuestionRef
    public var courseTitle: String
    public var lessonTitle: String
    public var question: Question
    public var schedule: CardSchedule
    /// When each grade would bring the card back, in seconds from when the deck was read (by
    /// the learner's settings, no fuzz): what the grade keys say.
    public var intervals: [ReviewGrade: TimeInterval]

    public init(
        ref: QuestionRef, courseTitle: String, lessonTitle: String, question: Question, schedule: CardSchedule,
        intervals: [ReviewGrade: TimeInterval] = [:]
    ) {
        self.ref = ref
        self.courseTitle = courseTitle
        self.lessonTitle = lessonTitle
        self.question = question
        self.schedule = schedule
        self.intervals = intervals
    }
}

/// The cards to review now: the first few, and how many there are of each part; and when the
/// next card in its steps comes back later today, if one does.
public struct ReviewDeck: Hashable, Sendable {
    public var cards: [ReviewCard]
    public var newCount: Int
    public var learningCount: Int
    public var dueCount: Int
    public var comingBack: Date?

    public init(cards: [ReviewCard], newCount: Int = 0, learningCount: Int = 0, dueCount: Int, comingBack: Date? = nil) {
        self.cards = cards
        self.newCount = newCount
        self.learningCount = learningCount
        self.dueCount = dueCount
        self.comingBack = comingBack
    }

    /// Cards to review now, of every part.
    public var total: Int { newCount + learningCount + dueCount }

    /// The deck of `schedules` at `time` (of every card the learner has): its counts, and when
    /// the next card in its steps comes back today. The cards are the caller's, in its order.
    public init(cards: [ReviewCard], counting schedules: some Sequence<CardSchedule>, at time: StudyTime) {
        var counts: [CardSchedule.Part: Int] = [:]
        var comingBack: Date?
        for schedule in schedules {
            if schedule.isDue(at: time) {
                counts[schedule.part, default: 0] += 1
            } else if schedule.card.state != .review, schedule.card.due < time.dayEnd {
                comingBack = min(comingBack ?? schedule.card.due, schedule.card.due)
            }
        }
        self.init(
            cards: cards, newCount: counts[.new] ?? 0, learningCount: counts[.learning] ?? 0, dueCount: counts[.due] ?? 0,
            comingBack: comingBack)
    }
}

/// What the Profile tab shows of the learner's habit.
public struct LearningHabit: Hashable, Sendable {
    /// Days in a row, up to today (or yesterday while today is still open), with a lesson
    /// done or a card reviewed.
    public var streakDays: Int
    public var dueCount: Int
    /// Whether the day asked about has some learning already: with it the streak's days are
    /// known (ending on it, or on the day before), so a replica can extend them offline.
    public var activeToday: Bool

    public init(streakDays: Int, dueCount: Int, activeToday: Bool) {
        self.streakDays = streakDays
        self.dueCount = dueCount
        self.activeToday = activeToday
    }

    /// The days of the streak that ends on `today`, as `streak(activeDays:today:)` counted them.
    public static func days(ofStreak streak: Int, endingOn today: LearnerDay, activeToday: Bool) -> Set<LearnerDay> {
        let last = activeToday ? today : today.adding(days: -1)
        return Set((0..<max(0, streak)).map { last.adding(days: -$0) })
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

extension CardSchedule {
    /// A card SM-2 scheduled, before FSRS, without a review log: mapped as Anki maps one
    /// (`FSRSScheduler.card(sm2Repetitions:…)`), due at noon UTC of its due day, which is on
    /// that day for a learner from 12 hours west of UTC to 11 east (a day later at most beyond).
    /// It was in the deck already: not new to review.
    public static func fromSM2(repetitions: Int, easeMillis: Int, intervalDays: Int, dueDay: LearnerDay) -> CardSchedule {
        let due = Date(timeIntervalSince1970: Double(dueDay.number) * 86_400 + 43_200)
        let card =
            (try? ReviewSettings.default.scheduler.card(
                sm2Repetitions: repetitions, easeMillis: easeMillis, intervalDays: intervalDays, due: due))
            ?? FSRSCard(due: due)
        return CardSchedule(card: card, reviews: 1)
    }
}

extension CardSchedule {
    /// Instants a schedule may hold, in whole seconds since 1970: years 1 to 9999.
    public static let instants: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

    /// A schedule from stored or received values, if they make one FSRS can work with: a state
    /// it knows, a step only while (re)learning, stability and difficulty both there (finite,
    /// stability in 0.0001…10⁶ days, difficulty 1…10) or both not, instants of years 1–9999 in
    /// whole seconds. Anything else (another program's row, a hostile server) is `nil`.
    public static func checked(
        state: Int, step: Int?, stability: Double?, difficulty: Double?, dueSeconds: Int64, lastReviewSeconds: Int64?, reviews: Int
    ) -> CardSchedule? {
        guard let state = FSRSCardState(rawValue: state), (state == .review) == (step == nil), (0...1_000).contains(step ?? 0),
            (stability == nil) == (difficulty == nil), stability.map({ $0.isFinite && (0.0001...1_000_000).contains($0) }) ?? true,
            difficulty.map({ $0.isFinite && (1...10).contains($0) }) ?? true, instants.contains(dueSeconds),
            lastReviewSeconds.map(instants.contains) ?? true, (0...1_000_000).contains(reviews)
        else { return nil }
        let card = FSRSCard(
            state: state, step: step, stability: stability, difficulty: difficulty, due: Date(timeIntervalSince1970: Double(dueSeconds)),
            lastReview: lastReviewSeconds.map { Date(timeIntervalSince1970: Double($0)) })
        return CardSchedule(card: card, reviews: reviews)
    }

    /// `due` in whole seconds since 1970, as stores and the API keep it.
    public var dueSeconds: Int64 { Int64(card.due.timeIntervalSince1970.rounded(.down)) }
    public var lastReviewSeconds: Int64? { card.lastReview.map { Int64($0.timeIntervalSince1970.rounded(.down)) } }
}
