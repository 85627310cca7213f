import Foundation

/// The database identity of an enrollment.
public struct EnrollmentID: Hashable, Sendable {
    public let rawValue: Int64

    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }
}

/// Where a learner stands in a course.
public enum EnrollmentStatus: String, CaseIterable, Hashable, Sendable {
    case active
    case completed
    /// Unenrolled; kept for history, frees the seat.
    case dropped
}

/// A learner's place in a course: when they joined, which lessons they have done, and when
/// they completed it.
public struct Enrollment: Identifiable, Hashable, Sendable {
    public let id: EnrollmentID
    public let userID: UserID
    public let courseID: CourseID
    public var enrolledAt: Date
    public var status: EnrollmentStatus
    /// The lessons done, numbered from 1 in syllabus order.
    public var lessonsDone: Set<Int>
    /// When the learner last completed the course (marked its last lesson done); `nil` if they
    /// never did. History: kept when a lesson is marked not done again and when they leave.
    public var completedAt: Date?
    /// When the learner last did something in the course: joined it, marked a lesson, answered
    /// one of its questions. My courses is ordered by it, most recent first.
    public var lastActiveAt: Date

    public init(
        id: EnrollmentID,
        userID: UserID,
        courseID: CourseID,
        enrolledAt: Date,
        status: EnrollmentStatus = .active,
        lessonsDone: Set<Int> = [],
        completedAt: Date? = nil,
        lastActiveAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.courseID = courseID
        self.enrolledAt = enrolledAt
        self.status = status
        self.lessonsDone = lessonsDone
        self.completedAt = completedAt
        self.lastActiveAt = lastActiveAt ?? enrolledAt
    }

    /// Active and completed enrollments hold a place; dropped ones do not.
    public var holdsPlace: Bool { status != .dropped }

    /// Whether the learner completed the course once, whatever its status now: a completion
    /// is permanent history, and meets a prerequisite for good.
    public var wasCompleted: Bool { completedAt != nil }

    /// What the learner's list of courses holds (`EnrollmentRepository.enrolledCourses`): an
    /// enrollment that holds a place, or one left after completing the course, which keeps
    /// its prerequisites met. A course left before completing it is not listed.
    public var isListed: Bool { holdsPlace || wasCompleted }
}

/// A learner's progress through a course, as My courses shows it.
public enum ProgressStatus: Hashable, Sendable {
    case notStarted
    case inProgress
    case completed(Date)
    /// Completed on that date, then left: history, not a place in the course.
    case left(completed: Date)

    public var displayName: LocalizedText {
        switch self {
        case .notStarted: "Not started"
        case .inProgress: "In progress"
        case .completed: "Completed"
        case .left: "Not enrolled"
        }
    }
}

/// A course together with the learner's enrollment in it, for My courses.
public struct EnrolledCourse: Identifiable, Hashable, Sendable {
    public var course: Course
    public var enrollment: Enrollment

    public init(course: Course, enrollment: Enrollment) {
        self.course = course
        self.enrollment = enrollment
    }

    public var id: CourseID { course.id }

    /// Lessons done ÷ lessons, 0 to 100, rounded down (100 only when every lesson is done).
    public var percent: Int {
        LessonRules.percent(done: enrollment.lessonsDone.count, of: course.lessonCount)
    }

    /// `Completed` only while the course is completed now: a lesson marked not done again makes
    /// it in progress, though its completion stays history (`Enrollment.wasCompleted`).
    public var progress: ProgressStatus {
        switch (enrollment.status, enrollment.completedAt) {
        case (.completed, let date?): .completed(date)
        case (.dropped, let date?): .left(completed: date)
        default: enrollment.lessonsDone.isEmpty ? .notStarted : .inProgress
        }
    }
}
