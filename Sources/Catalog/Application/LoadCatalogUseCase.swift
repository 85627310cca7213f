import SharedKernel

/// Reads the catalog a page at a time, sorted by title, with the learner's enrollments and
/// favourites marked; narrowed to a search query when there is one.
struct LoadCatalogUseCase: Sendable {
    let courses: any CourseRepository
    let marks: CourseMarks

    func page(query: String, at position: CatalogPosition, limit: Int) async throws(AppError) -> [CatalogRow.Marked] {
        let rows = try await courses.page(matching: query, at: position, limit: limit)
        let marks = try await marks.load()
        return rows.map { row in
            CatalogRow.Marked(
                key: row.key,
                entry: CatalogEntry(
                    course: row.course,
                    isEnrolled: marks.enrolled.contains(row.course.id),
                    isFavourite: marks.favourites.contains(row.course.id)
                )
            )
        }
    }

    func count(query: String) async throws(AppError) -> CatalogCount {
        try await courses.count(matching: query)
    }
}

extension CatalogRow {
    /// A row of the list: its place in the catalog order and how the learner relates to it.
    struct Marked: Hashable, Sendable {
        let key: CatalogKey
        let entry: CatalogEntry
    }
}
