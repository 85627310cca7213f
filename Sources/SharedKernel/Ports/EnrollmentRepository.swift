/// Reads and writes a learner's enrollments.
public protocol EnrollmentRepository: Sendable {
    /// Enrolls in one transaction: checks `EnrollmentRules` against the stored data and takes
    /// a seat, or throws `.refused` and writes nothing.
    func enroll(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment
    /// Drops the enrollment and frees its seat; `.notEnrolled` when there is none.
    func unenroll(userID: UserID, courseID: CourseID) async throws(AppError)
    /// The learner's active and completed courses, most recently enrolled first.
    func enrolledCourses(userID: UserID) async throws(AppError) -> [EnrolledCourse]
    /// The learner's enrollment in one course, if any (dropped ones included).
    func enrollment(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment?
}
