import SharedKernel

/// Enrolls the signed-in learner in a course, or explains in words why not. The rules are
/// checked before any write, so a refusal writes nothing; the store checks them again inside
/// its transaction for the case where another instance got there first.
struct EnrollInCourseUseCase: Sendable {
    let session: any SessionRepository
    let courses: any CourseRepository
    let enrollments: any EnrollmentRepository

    func execute(courseID: CourseID) async throws(AppError) -> Enrollment {
        guard let user = try await session.currentUser() else { throw .notSignedIn }
        let course = try await courses.course(id: courseID)
        let existing = try await enrollments.enrollment(userID: user.id, courseID: courseID)
        var prerequisite: (course: Course, completed: Bool)?
        if let prerequisiteID = course.prerequisiteID {
            do {
                let required = try await courses.course(id: prerequisiteID)
                let status = try await enrollments.enrollment(userID: user.id, courseID: prerequisiteID)?.status
                prerequisite = (required, status == .completed)
            } catch .courseNotFound {
                prerequisite = nil  // a prerequisite that left the catalog blocks nothing
            }
        }
        if let refusal = EnrollmentRules.refusal(for: course, existing: existing, prerequisite: prerequisite) {
            throw .refused(refusal)
        }
        return try await enrollments.enroll(userID: user.id, courseID: courseID)
    }
}
