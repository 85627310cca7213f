import SharedKernel

/// Marks or unmarks a course as the signed-in learner's favourite.
struct ToggleFavouriteUseCase: Sendable {
    let session: any SessionRepository
    let favourites: any FavouritesRepository

    /// Returns whether the course is a favourite afterwards.
    func execute(courseID: CourseID) async throws(AppError) -> Bool {
        guard let user = try await session.currentUser() else { throw .notSignedIn }
        return try await favourites.toggle(userID: user.id, courseID: courseID)
    }
}

/// The signed-in learner's favourite courses, sorted by title.
struct LoadFavouritesUseCase: Sendable {
    let session: any SessionRepository
    let favourites: any FavouritesRepository

    func execute() async throws(AppError) -> [Course] {
        guard let user = try await session.currentUser() else { throw .notSignedIn }
        return try await favourites.favourites(userID: user.id)
    }
}
