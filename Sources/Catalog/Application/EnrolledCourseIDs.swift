import SharedKernel

/// The ids of the courses the signed-in learner holds a place in; empty when nobody is
/// signed in.
struct EnrolledCourseIDs: Sendable {
    let session: any SessionRepository
    let enrollments: any EnrollmentRepository

    func load() async throws(AppError) -> Set<CourseID> {
        guard let user = try await session.currentUser() else { return [] }
        return Set(try await enrollments.enrolledCourses(userID: user.id).map(\.course.id))
    }

    func contains(_ courseID: CourseID) async throws(AppError) -> Bool {
        guard let user = try await session.currentUser() else { return false }
        return try await enrollments.enrollment(userID: user.id, courseID: courseID)?.holdsPlace ?? false
    }
}
