import SharedKernel

/// The data ports the features run on, as the composition root assembled them (SQLite,
/// possibly behind the development decorators).
struct AppPorts: Sendable {
    var courses: any CourseRepository
    var enrollments: any EnrollmentRepository
    var favourites: any FavouritesRepository
    var profiles: any ProfileRepository
    var sessions: any SessionRepository
    /// Lessons' text, answers and reviews.
    var learning: any LearningRepository
    /// The store's news, for every screen to show what it holds now; nil: none.
    var changes: (any ChangeFeed)? = nil
    /// The server (`host:port`) in remote mode; nil for the local database.
    var server: String? = nil
    /// The learner's day, for reviews and streaks.
    var calendar = LearnerCalendar(start: nil)
}
