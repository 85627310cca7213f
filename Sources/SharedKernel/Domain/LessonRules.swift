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
/// it in progress. Progress is never lost: leaving keeps the lessons done, joining again
/// brings them back, and a completion is permanent history, which meets a prerequisite.
public enum LessonRules {
    /// The enrollment after lesson `number` (from 1) is marked `done` at `now`, or why not.
    /// Idempotent: marking a lesson as it already is changes nothing. Completing the course
    /// (again) dates it `now`; a lesson undone keeps that date as history.
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
        enrollment.lastActiveAt = now
        switch (isEveryLessonDone(enrollment.lessonsDone, of: lessonCount), enrollment.status) {
        case (true, .active):
            enrollment.status = .completed
            enrollment.completedAt = now
        case (false, .completed):
            enrollment.status = .active
        default:
            break
        }
        return .success(enrollment)
    }

    /// The enrollment once the learner leaves: dropped (its seat freed), with its lessons done
    /// and its completion kept.
    public static func leave(_ enrollment: Enrollment) -> Enrollment {
        var left = enrollment
        left.status = .dropped
        return left
    }

    /// The enrollment once the learner joins again at `now`: the lessons done come back, and it
    /// is completed if it was and every lesson is still done (a syllabus can grow), else in
    /// progress. The completion date stays either way.
    public static func rejoin(_ enrollment: Enrollment, lessonCount: Int, at now: Date) -> Enrollment {
        var back = enrollment
        back.enrolledAt = now
        back.lastActiveAt = now
        back.status = enrollment.wasCompleted && isEveryLessonDone(enrollment.lessonsDone, of: lessonCount) ? .completed : .active
        return back
    }

    /// Whether lessons 1 to `lessonCount` are all done (numbers past a syllabus that shrank do
    /// not count).
    public static func isEveryLessonDone(_ done: Set<Int>, of lessonCount: Int) -> Bool {
        (1...max(1, lessonCount)).allSatisfy(done.contains)
    }

    /// `done` of `total` as a whole percentage, rounded down, so 100 % means all of it.
    public static func percent(done: Int, of total: Int) -> Int {
        guard total > 0 else { return 0 }
        let done = min(max(0, done), total)
        // In double width, so no count is too large to multiply; the quotient is at most 100.
        return total.dividingFullWidth(done.multipliedFullWidth(by: 100)).quotient
    }

    /// A prerequisite is met when the learner completed its course once: leaving it, or
    /// marking one of its lessons not done since, does not take that back.
    public static func meetsPrerequisite(_ enrollment: Enrollment?) -> Bool {
        enrollment?.wasCompleted ?? false
    }
}
