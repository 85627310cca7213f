import SharedKernel

/// Loads the catalog list, sorted by title, with the learner's enrollments marked.
struct LoadCatalogUseCase: Sendable {
    let courses: any CourseRepository
    let enrolled: EnrolledCourseIDs

    func execute() async throws(AppError) -> [CatalogEntry] {
        let all = try await courses.allCourses()
        let enrolledIDs = try await enrolled.load()
        return all.map { CatalogEntry(course: $0, isEnrolled: enrolledIDs.contains($0.id)) }
    }
}
