import SharedKernel

/// The data ports the features run on, as the composition root assembled them (SQLite,
/// possibly behind the development decorators).
struct AppPorts: Sendable {
    var courses: any CourseRepository
    var enrollments: any EnrollmentRepository
    var favourites: any FavouritesRepository
    var profiles: any ProfileRepository
    var sessions: any SessionRepository
    /// The server (`host:port`) in remote mode; nil for the local database.
    var server: String? = nil
}
