/// Reads and writes a learner's enrollments.
public protocol EnrollmentRepository: Sendable {
    /// Enrolls in one transaction: checks `EnrollmentRules` against the stored data and takes
    /// a seat, or throws `.refused` and writes nothing. Joining a course left before brings its
    /// progress back (`LessonRules.rejoin`).
    func enroll(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment
    /// Drops the enrollment and frees its seat, keeping its lessons done and completion (a
    /// later `enroll` brings them back); `.notEnrolled` when there is none that holds a place.
    func unenroll(userID: UserID, courseID: CourseID) async throws(AppError)
    /// Marks lesson `number` (from 1) done or not done by `LessonRules`, in one transaction:
    /// the last lesson done completes the course. Idempotent. `.notEnrolled` without an
    /// enrollment that holds a place; `.noSuchLesson` past the syllabus.
    func setLesson(_ number: Int, done: Bool, userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment
    /// The learner's courses that hold a place, and those they left after completing them
    /// (status dropped, `completedAt` set: history, which keeps prerequisites met), the most
    /// recently active first (`Enrollment.lastActiveAt`, `Enrollment.isListed`). A course whose stored row is damaged is
    /// left out.
    func enrolledCourses(userID: UserID) async throws(AppError) -> [EnrolledCourse]
    /// The learner's enrollment in one course, by the same rule as `enrolledCourses`: `nil`
    /// when there is none, or only one left before completing. A damaged course is an error.
    func enrolledCourse(userID: UserID, courseID: CourseID) async throws(AppError) -> EnrolledCourse?
    /// The learner's enrollments in the courses among `ids` (at most `CourseLimits.idsPerAsk`),
    /// by `enrolledCourses`' rule and in its order: the marks of one page of the catalog,
    /// without reading the whole list.
    func enrolledCourses(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [EnrolledCourse]
}
