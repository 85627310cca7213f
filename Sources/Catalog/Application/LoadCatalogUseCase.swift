import SharedKernel

/// Loads the catalog list, sorted by title.
struct LoadCatalogUseCase: Sendable {
    let courses: any CourseRepository

    func execute() async throws(AppError) -> [Course] {
        try await courses.allCourses()
    }
}
