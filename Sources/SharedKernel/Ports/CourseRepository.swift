/// Reads the course catalog.
public protocol CourseRepository: Sendable {
    /// Every course, sorted by title (case- and accent-insensitive), then id.
    func allCourses() async throws(AppError) -> [Course]
    /// Courses whose title, instructor or tags contain every word of `query`, ignoring case
    /// and accents; sorted like `allCourses`. A blank query matches every course.
    func search(_ query: String) async throws(AppError) -> [Course]
    /// One course; `.courseNotFound` when there is none with that id.
    func course(id: CourseID) async throws(AppError) -> Course
}
