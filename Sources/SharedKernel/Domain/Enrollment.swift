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

    public var displayName: String {
        switch self {
        case .active: "In progress"
        case .completed: "Completed"
        case .dropped: "Dropped"
        }
    }
}

/// A learner's place in a course.
public struct Enrollment: Identifiable, Hashable, Sendable {
    public let id: EnrollmentID
    public let userID: UserID
    public let courseID: CourseID
    public var enrolledAt: Date
    public var status: EnrollmentStatus
    /// 0 to 100.
    public var progress: Int

    public init(id: EnrollmentID, userID: UserID, courseID: CourseID, enrolledAt: Date, status: EnrollmentStatus = .active, progress: Int = 0) {
        self.id = id
        self.userID = userID
        self.courseID = courseID
        self.enrolledAt = enrolledAt
        self.status = status
        self.progress = min(100, max(0, progress))
    }

    /// Active and completed enrollments hold a place; dropped ones do not.
    public var holdsPlace: Bool { status != .dropped }
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
}
