import Foundation
import SharedKernel
import Storage

/// Remote mode's catalog and lessons: the server's, with each course it shows remembered
/// (`SeenCourses`), and each course page and lesson opened kept in the replica, which answers
/// them while the server cannot be reached.
struct ReplicaCourses: CourseRepository {
    let server: any CourseRepository
    let seen: SeenCourses
    let replica: SQLiteReplica
    let here: SQLiteCourseRepository
    /// Told how many saved courses the catalog searches while the server cannot be reached
    /// (nil once it answers again).
    var searching: @MainActor @Sendable (Int?) -> Void = { _ in }

    func page(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError) -> [CatalogRow]
    {
        do {
            let rows = try await server.page(query, for: learner, at: position, limit: limit)
            seen.remember(rows.lazy.map(\.course))
            await searching(nil)
            return rows
        } catch  where error.isUnreachable {
            try await searchSaved(error)
            return try await here.page(query, for: learner, at: position, limit: limit)
        }
    }

    func count(_ query: CatalogQuery, for learner: UserID?) async throws(AppError) -> CatalogCount {
        do {
            let count = try await server.count(query, for: learner)
            await searching(nil)
            return count
        } catch  where error.isUnreachable {
            try await searchSaved(error)
            return try await here.count(query, for: learner)
        }
    }

    func countedPage(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError)
        -> CountedPage
    {
        do {
            let page = try await server.countedPage(query, for: learner, at: position, limit: limit)
            seen.remember(page.rows.lazy.map(\.course))
            await searching(nil)
            return page
        } catch  where error.isUnreachable {
            try await searchSaved(error)
            return try await here.countedPage(query, for: learner, at: position, limit: limit)
        }
    }

    /// The server cannot be reached: the catalog searches the courses saved here, and says
    /// how many; with none saved, `error` stands.
    private func searchSaved(_ error: AppError) async throws(AppError) {
        guard case .exactly(let saved) = try await here.count(CatalogQuery.parse(""), for: nil), saved > 0 else { throw error }
        await searching(saved)
    }

    func course(id: CourseID) async throws(AppError) -> Course {
        do {
            let course = try await server.course(id: id)
            seen.remember(CollectionOfOne(course))
            return course
        } catch  where error.isUnreachable {
            guard let kept = try? await here.course(id: id) else { throw error }
            return kept
        }
    }

    func syllabus(of id: CourseID) async throws(AppError) -> Syllabus {
        do {
            let syllabus = try await server.syllabus(of: id)
            seen.remember(CollectionOfOne(syllabus.course))
            // A replica that cannot keep it leaves the page as the server gave it.
            try? await replica.keep(syllabus: syllabus)
            return syllabus
        } catch  where error.isUnreachable {
            // A course whose page was never read has no lessons here: no made-up syllabus.
            guard let kept = try? await here.syllabus(of: id), kept.lessons.count == kept.course.lessonCount else { throw error }
            return kept
        }
    }
}
