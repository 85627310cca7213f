import SharedKernel

/// How the signed-in learner relates to courses: enrolled (`✓`) and favourite (`★`).
/// Nobody signed in: nothing is marked.
struct CourseMarks: Sendable {
    let session: any SessionRepository
    let enrollments: any EnrollmentRepository
    let favourites: any FavouritesRepository

    struct Marks: Hashable, Sendable {
        var enrolled: Set<CourseID> = []
        var favourites: Set<CourseID> = []
    }

    func load() async throws(AppError) -> Marks {
        guard let user = try await session.currentUser() else { return Marks() }
        return Marks(
            enrolled: Set(try await enrollments.enrolledCourses(userID: user.id).map(\.course.id)),
            favourites: try await favourites.favouriteIDs(userID: user.id)
        )
    }

    func isEnrolled(_ courseID: CourseID) async throws(AppError) -> Bool {
        guard let user = try await session.currentUser() else { return false }
        return try await enrollments.enrollment(userID: user.id, courseID: courseID)?.holdsPlace ?? false
    }

    func isFavourite(_ courseID: CourseID) async throws(AppError) -> Bool {
        guard let user = try await session.currentUser() else { return false }
        return try await favourites.favouriteIDs(userID: user.id).contains(courseID)
    }
}
