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
    /// When the last lesson was marked done; `nil` while the course is in progress.
    public var completedAt: Date?

    public init(
        id: EnrollmentID,
        userID: UserID,
        courseID: CourseID,
        enrolledAt: Date,
        status: EnrollmentStatus = .active,
        lessonsDone: Set<Int> = [],
        completedAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.courseID = courseID
        self.enrolledAt = enrolledAt
        self.status = status
        self.lessonsDone = lessonsDone
        self.completedAt = completedAt
    }

    /// Active and completed enrollments hold a place; dropped ones do not.
    public var holdsPlace: Bool { status != .dropped }
}

/// A learner's progress through a course, as My courses shows it.
public enum ProgressStatus: Hashable, Sendable {
    case notStarted
    case inProgress
    case completed(Date)

    public var displayName: String {
        switch self {
        case .notStarted: "Not started"
        case .inProgress: "In progress"
        case .completed: "Completed"
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

    public var progress: ProgressStatus {
        if enrollment.status == .completed, let completedAt = enrollment.completedAt { return .completed(completedAt) }
        return enrollment.lessonsDone.isEmpty ? .notStarted : .inProgress
    }
}
