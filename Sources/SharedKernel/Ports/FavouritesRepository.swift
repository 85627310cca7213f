/// A learner's favourite courses.
public protocol FavouritesRepository: Sendable {
    /// Marks the course as a favourite, or unmarks it if it was one. Returns whether it is a
    /// favourite afterwards.
    func toggle(userID: UserID, courseID: CourseID) async throws(AppError) -> Bool
    /// The learner's favourite courses, sorted by title.
    func favourites(userID: UserID) async throws(AppError) -> [Course]
    /// The ids of the learner's favourite courses.
    func favouriteIDs(userID: UserID) async throws(AppError) -> Set<CourseID>
}
