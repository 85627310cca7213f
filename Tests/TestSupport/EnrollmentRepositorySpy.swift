import Foundation
import SharedKernel

/// An in-memory `EnrollmentRepository` that records every call. Writes apply to its own
/// store, so a test can state both what was asked and what came of it.
public actor EnrollmentRepositorySpy: EnrollmentRepository {
    public enum Message: Equatable, Sendable {
        case enroll(userID: UserID, courseID: CourseID)
        case unenroll(userID: UserID, courseID: CourseID)
        case enrolledCourses(userID: UserID)
        case enrollment(userID: UserID, courseID: CourseID)
    }

    public private(set) var messages: [Message] = []
    private var stored: [Enrollment]
    private let courses: [Course]
    private var failure: AppError?
    private var nextID: Int64 = 100

    public init(courses: [Course] = [], enrollments: [Enrollment] = [], failure: AppError? = nil) {
        self.courses = courses
        self.stored = enrollments
        self.failure = failure
    }

    /// The calls that change data, to assert that a refusal wrote nothing.
    public var writes: [Message] {
        messages.filter {
            switch $0 {
            case .enroll, .unenroll: true
            case .enrolledCourses, .enrollment: false
            }
        }
    }

    public func setFailure(_ failure: AppError?) {
        self.failure = failure
    }

    public func enroll(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        messages.append(.enroll(userID: userID, courseID: courseID))
        if let failure { throw failure }
        stored.removeAll { $0.userID == userID && $0.courseID == courseID }
        nextID += 1
        let enrollment = Enrollment(id: EnrollmentID(nextID), userID: userID, courseID: courseID, enrolledAt: Date(timeIntervalSince1970: 1_800_000_000))
        stored.append(enrollment)
        return enrollment
    }

    public func unenroll(userID: UserID, courseID: CourseID) async throws(AppError) {
        messages.append(.unenroll(userID: userID, courseID: courseID))
        if let failure { throw failure }
        guard let index = stored.firstIndex(where: { $0.userID == userID && $0.courseID == courseID && $0.holdsPlace }) else {
            throw .notEnrolled(courseID)
        }
        stored[index].status = .dropped
    }

    public func enrolledCourses(userID: UserID) async throws(AppError) -> [EnrolledCourse] {
        messages.append(.enrolledCourses(userID: userID))
        if let failure { throw failure }
        return stored.filter { $0.userID == userID && $0.holdsPlace }.reversed().compactMap { enrollment in
            courses.first { $0.id == enrollment.courseID }.map { EnrolledCourse(course: $0, enrollment: enrollment) }
        }
    }

    public func enrollment(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment? {
        messages.append(.enrollment(userID: userID, courseID: courseID))
        if let failure { throw failure }
        return stored.first { $0.userID == userID && $0.courseID == courseID }
    }
}

extension Enrollment {
    public static func fixture(
        id: Int64 = 1,
        userID: UserID = User.demo.id,
        courseID: CourseID = "swift-101",
        status: EnrollmentStatus = .active,
        progress: Int = 0
    ) -> Enrollment {
        Enrollment(id: EnrollmentID(id), userID: userID, courseID: courseID, enrolledAt: Date(timeIntervalSince1970: 1_763_769_600), status: status, progress: progress)
    }
}
