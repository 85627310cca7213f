import SharedKernel

/// Loads the catalog list, sorted by title, with the learner's enrollments and favourites marked.
struct LoadCatalogUseCase: Sendable {
    let courses: any CourseRepository
    let marks: CourseMarks

    func execute() async throws(AppError) -> [CatalogEntry] {
        let all = try await courses.allCourses()
        let marks = try await marks.load()
        return all.map {
            CatalogEntry(course: $0, isEnrolled: marks.enrolled.contains($0.id), isFavourite: marks.favourites.contains($0.id))
        }
    }
}
