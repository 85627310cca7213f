import SharedKernel

/// The signed-in learner's active and completed courses.
struct LoadMyCoursesUseCase: Sendable {
    let session: any SessionRepository
    let enrollments: any EnrollmentRepository

    func execute() async throws(AppError) -> [EnrolledCourse] {
        guard let user = try await session.currentUser() else { throw .notSignedIn }
        return try await enrollments.enrolledCourses(userID: user.id)
    }
}

/// Leaves a course and frees its seat.
struct UnenrollUseCase: Sendable {
    let session: any SessionRepository
    let enrollments: any EnrollmentRepository

    func execute(courseID: CourseID) async throws(AppError) {
        guard let user = try await session.currentUser() else { throw .notSignedIn }
        try await enrollments.unenroll(userID: user.id, courseID: courseID)
    }
}
