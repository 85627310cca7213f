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
    /// choices, except one question in four; and the card it started, by SM-2, due today for
    /// the first three lessons and over the next days for the rest.
    public func answer(to question: Question, index: Int, lesson: Int) -> (chosen: Set<Int>, schedule: CardSchedule) {
        let isRight = (lesson + index) % 4 != 0
        let wrong = question.choices.indices.first { !question.correct.contains($0) } ?? 0
        var schedule = CardSchedule.new(on: answeredOn).reviewed(.firstAnswer(isRight: isRight), on: answeredOn)
        schedule.due = lesson <= 3 ? today : today.adding(days: lesson - 3)
        return (isRight ? question.correct : [wrong], schedule)
    }
}
