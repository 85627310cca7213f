/// Reads the course catalog.
public protocol CourseRepository: Sendable {
    /// Every course, sorted by title (case- and accent-insensitive), then id.
    func allCourses() async throws(AppError) -> [Course]
    /// One course; `.courseNotFound` when there is none with that id.
    func course(id: CourseID) async throws(AppError) -> Course
}
