import SharedKernel

/// A catalog row: the course and how the signed-in learner relates to it.
struct CatalogEntry: Identifiable, Hashable, Sendable {
    var course: Course
    var isEnrolled: Bool

    var id: CourseID { course.id }

    /// `✓` when enrolled; the favourite star joins it with favourites.
    var markers: String {
        isEnrolled ? " ✓" : ""
    }
}
