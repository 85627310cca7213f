import SharedKernel

/// A catalog row: the course and how the signed-in learner relates to it.
struct CatalogEntry: Identifiable, Hashable, Sendable {
    var course: Course
    var isEnrolled: Bool
    var isFavourite: Bool = false

    var id: CourseID { course.id }

    /// `★` for a favourite, then `✓` when enrolled, each in its own column.
    var markers: String {
        let marks = (isFavourite ? "★" : " ") + (isEnrolled ? "✓" : "")
        return marks == " " ? "" : marks
    }
}
