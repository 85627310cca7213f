import Foundation

/// Why a lesson cannot be marked.
public enum LessonRefusal: Error, Hashable, Sendable {
    /// Only a learner enrolled in the course marks its lessons.
    case notEnrolled
    /// There is no lesson with that number.
    case noSuchLesson(Int)
}

/// The learning-progress rules every store applies: marking needs an active or completed
/// enrollment; the last lesson done completes the course; marking one not done again makes
/// it in progress; a prerequisite is met by a completed course.
public enum LessonRules {
    /// The enrollment after lesson `number` (from 1) is marked `done` at `now`, or why not.
    /// Idempotent: marking a lesson as it already is changes nothing.
    public static func mark(
        _ number: Int,
        done: Bool,
        in enrollment: Enrollment?,
        lessonCount: Int,
        now: Date
    ) -> Result<Enrollment, LessonRefusal> {
        guard var enrollment, enrollment.holdsPlace else { return .failure(.notEnrolled) }
        guard (1...max(1, lessonCount)).contains(number) else { return .failure(.noSuchLesson(number)) }
        if done { enrollment.lessonsDone.insert(number) } else { enrollment.lessonsDone.remove(number) }
        let complete = enrollment.lessonsDone.count >= lessonCount
        switch (complete, enrollment.status) {
        case (true, .active):
            enrollment.status = .completed
            enrollment.completedAt = now
        case (false, .completed):
            enrollment.status = .active
            enrollment.completedAt = nil
        default:
            break
        }
        return .success(enrollment)
    }

    /// `done` of `total` as a whole percentage, rounded down, so 100 % means all of it.
    public static func percent(done: Int, of total: Int) -> Int {
        guard total > 0 else { return 0 }
        let done = min(max(0, done), total)
        // In double width, so no count is too large to multiply; the quotient is at most 100.
        return total.dividingFullWidth(done.multipliedFullWidth(by: 100)).quotient
    }

    /// A prerequisite is met when the learner completed its course.
    public static func meetsPrerequisite(_ enrollment: Enrollment?) -> Bool {
        enrollment?.status == .completed
    }
}
