import SharedKernel

/// A course with what its detail screen shows besides the course itself.
struct CourseDetail: Hashable, Sendable {
    var course: Course
    /// The prerequisite's title, when the course has one that still exists.
    var prerequisiteTitle: String?
    var isEnrolled: Bool = false
    var isFavourite: Bool = false
}
