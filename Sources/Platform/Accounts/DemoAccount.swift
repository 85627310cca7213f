import Foundation
import SharedKernel

/// The demo learner every new database has, whichever store holds it.
public enum DemoAccount {
    public static let name = "Demo Learner"
    public static let email = "demo@edugo.dev"
    public static let password = "edugo-demo"

    /// A newcomer sees progress at once, and can join a course that needs a completed one:
    /// the demo learner has finished The Linux Command Line (which Git Beyond the Basics and
    /// others require) and is 3 lessons into Swift Fundamentals. A store applies it only to a
    /// demo account that never enrolled, and skips a course its catalog lacks.
    public static func progressPlan(now: Date) -> [DemoEnrollment] {
        let day: TimeInterval = 86_400
        return [
            DemoEnrollment(
                courseID: "linux-command-line", enrolledAt: now - 30 * day, lessonsDone: nil, completedAt: now - 9 * day, now: now),
            DemoEnrollment(courseID: "swift-fundamentals", enrolledAt: now - 6 * day, lessonsDone: 3, completedAt: nil, now: now),
        ]
    }
}

/// One enrollment of the demo learner's starting progress.
public struct DemoEnrollment: Sendable {
    public let courseID: CourseID
    public let enrolledAt: Date
    public let completedAt: Date?
    /// Lessons done from the first; `nil` for all of them.
    private let lessonsDone: Int?
    private let now: Date

    init(courseID: CourseID, enrolledAt: Date, lessonsDone: Int?, completedAt: Date?, now: Date) {
        self.courseID = courseID
        self.enrolledAt = enrolledAt
        self.lessonsDone = lessonsDone
        self.completedAt = completedAt
        self.now = now
    }

    public var status: EnrollmentStatus { completedAt == nil ? .active : .completed }

    /// The lessons marked done in a course of `lessonCount` lessons, one every half day from
    /// the enrollment, none after the completion (or now).
    public func lessons(of lessonCount: Int) -> [(position: Int, doneAt: Date)] {
        let day: TimeInterval = 86_400
        let last = max(1, min(lessonsDone ?? lessonCount, lessonCount))
        return (1...last).map { position in
            (position, min(enrolledAt + Double(position) * day / 2, completedAt ?? now))
        }
    }
}

extension DemoAccount {
    /// The demo learner's answers on a new database, so the review tab has cards on the first
    /// day: every question of the lessons already done in its two courses, mostly right, some
    /// due today and the rest over the next days. A store applies it only to a demo account
    /// that never answered, and only to questions it holds.
    public static func answerPlan(today: LearnerDay) -> [DemoAnswers] {
        [
            DemoAnswers(courseID: "linux-command-line", lessons: 1...7, answeredOn: today.adding(days: -10), today: today),
            DemoAnswers(courseID: "swift-fundamentals", lessons: 1...3, answeredOn: today.adding(days: -4), today: today),
        ]
    }
}

/// The demo learner's answers in one course.
public struct DemoAnswers: Sendable {
    public let courseID: CourseID
    public let lessons: ClosedRange<Int>
    public let answeredOn: LearnerDay
    private let today: LearnerDay

    init(courseID: CourseID, lessons: ClosedRange<Int>, answeredOn: LearnerDay, today: LearnerDay) {
        self.courseID = courseID
        self.lessons = lessons
        self.answeredOn = answeredOn
        self.today = today
    }

    /// What the learner chose for `question` (number `index` of lesson `lesson`): the right
    /// choices, except one question in four; and the card it started, by SM-2 as the stores
    /// scheduled it when this plan was first written (their migrations carry it over to FSRS),
    /// due today for the first three lessons and over the next days for the rest.
    public func answer(to question: Question, index: Int, lesson: Int) -> (chosen: Set<Int>, schedule: SM2Card) {
        let isRight = (lesson + index) % 4 != 0
        let wrong = question.choices.indices.first { !question.correct.contains($0) } ?? 0
        // SM-2 after a first response of quality 4 (good) or 1 (again): EF' = EF + 0.1 −
        // (5 − q)(0.08 + (5 − q)0.02) from 2.5; one recall in a row, or none, a day apart.
        let schedule = SM2Card(
            repetitions: isRight ? 1 : 0, easeMillis: isRight ? 2_500 : 1_960, intervalDays: 1,
            due: lesson <= 3 ? today : today.adding(days: lesson - 3))
        return (isRight ? question.correct : [wrong], schedule)
    }
}

/// A card as SM-2 kept it, before FSRS: recalls in a row, the easiness factor × 1000, the last
/// interval and the day it is due. What the stores' first demo answers were written with.
public struct SM2Card: Hashable, Sendable {
    public var repetitions: Int
    public var easeMillis: Int
    public var intervalDays: Int
    public var due: LearnerDay

    public init(repetitions: Int, easeMillis: Int, intervalDays: Int, due: LearnerDay) {
        self.repetitions = repetitions
        self.easeMillis = easeMillis
        self.intervalDays = intervalDays
        self.due = due
    }
}
