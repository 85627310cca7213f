/// A learner's favourite courses.
public protocol FavouritesRepository: Sendable {
    /// Makes the course a favourite or not. Idempotent: asking twice for the same state is
    /// the same as asking once, so the last of several quick changes always wins.
    func setFavourite(_ isFavourite: Bool, userID: UserID, courseID: CourseID) async throws(AppError)
    /// The learner's favourite courses, in catalog order.
    func favourites(userID: UserID) async throws(AppError) -> [Course]
    /// The course, when it is one of the learner's favourites; nil when it is not (or there
    /// is no such course). What a screen reads again when another terminal changed it.
    func favourite(userID: UserID, courseID: CourseID) async throws(AppError) -> Course?
    /// The learner's favourites among `ids` (at most `CourseLimits.idsPerAsk`), in catalog
    /// order: the marks of one page of the catalog, without reading the whole list.
    func favourites(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [Course]
}
