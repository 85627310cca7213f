import SharedKernel

/// Loads the catalog list, sorted by title, with the learner's enrollments and favourites
/// marked; narrowed to a search query when there is one.
struct LoadCatalogUseCase: Sendable {
    let courses: any CourseRepository
    let marks: CourseMarks

    func execute(query: String = "") async throws(AppError) -> [CatalogEntry] {
        let blank = query.allSatisfy(\.isWhitespace)
        let all = blank ? try await courses.allCourses() : try await courses.search(query)
        let marks = try await marks.load()
        return all.map {
            CatalogEntry(course: $0, isEnrolled: marks.enrolled.contains($0.id), isFavourite: marks.favourites.contains($0.id))
        }
    }
}
