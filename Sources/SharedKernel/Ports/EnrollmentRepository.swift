/// Reads and writes a learner's enrollments.
public protocol EnrollmentRepository: Sendable {
    /// Enrolls in one transaction: checks `EnrollmentRules` against the stored data and takes
    /// a seat, or throws `.refused` and writes nothing.
    func enroll(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment
    /// Drops the enrollment and frees its seat; `.notEnrolled` when there is none.
    func unenroll(userID: UserID, courseID: CourseID) async throws(AppError)
    /// Marks lesson `number` (from 1) done or not done by `LessonRules`, in one transaction:
    /// the last lesson done completes the course. Idempotent. `.notEnrolled` without an
    /// enrollment that holds a place; `.noSuchLesson` past the syllabus.
    func setLesson(_ number: Int, done: Bool, userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment
    /// The learner's active and completed courses, most recently enrolled first.
    func enrolledCourses(userID: UserID) async throws(AppError) -> [EnrolledCourse]
}
