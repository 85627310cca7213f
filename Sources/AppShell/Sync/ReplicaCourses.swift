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
    /// The run's first catalog page, drawn from disk (nil: always the server's first).
    var opening: OpeningPage?
    /// The rows the catalog's first page asks (its page size): a kept page with fewer, and not
    /// every match of its query, is not drawn; the server's page that replaces a kept one is
    /// asked with as many, so the next start's covers the catalog's page too (0: any kept page).
    var openingRows = 0
    /// Told when the catalog should read again: the server's first page was not the one
    /// drawn from disk.
    var changed: @Sendable (Change) -> Void = { _ in }

    func page(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError) -> [CatalogRow]
    {
        guard case .first = position, let opening else { return try await read(query, for: learner, at: position, limit: limit).rows }
        if let kept = await kept(query, for: learner, opening: opening) {
            if Self.covers(kept, limit) { return Array(kept.rows.prefix(limit)) }
            // More rows than were kept: the server's, with the marks on them the server's too.
            opening.finish()
        }
        let (rows, fromServer) = try await read(query, for: learner, at: .first, limit: limit)
        if fromServer, let page = opening.read(rows, of: query) { keep(page, of: query, for: learner, opening: opening) }
        return rows
    }

    /// The server's page, or offline the saved courses' (`fromServer` false).
    private func read(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError)
        -> (rows: [CatalogRow], fromServer: Bool)
    {
        do {
            let rows = try await server.page(query, for: learner, at: position, limit: limit)
            seen.remember(rows.lazy.map(\.course))
            await searching(nil)
            return (rows, true)
        } catch  where error.isUnreachable {
            try await searchSaved(error)
            return (try await here.page(query, for: learner, at: position, limit: limit), false)
        }
    }

    func count(_ query: CatalogQuery, for learner: UserID?) async throws(AppError) -> CatalogCount {
        if let opening, let kept = await kept(query, for: learner, opening: opening) { return kept.total }
        do {
            let count = try await server.count(query, for: learner)
            await searching(nil)
            if let opening, let page = opening.counted(count, of: query) { keep(page, of: query, for: learner, opening: opening) }
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

    /// The page the last start kept for `query`, while the run's first frame is drawn from
    /// it (the server asked behind the frame), else nil: the page and the count of the run's
    /// first read both take it, whichever the catalog asks first.
    private func kept(_ query: CatalogQuery, for learner: UserID?, opening: OpeningPage) async -> CountedPage? {
        await opening.kept(query) { [openingRows] in
            guard let kept = try? await replica.opening(query, learner: learner), Self.covers(kept, openingRows) else { return nil }
            return kept
        } ask: { kept in
            await reopen(query, for: learner, kept: kept, opening: opening)
        }
    }

    /// The server's first page and count, as the catalog read them, kept for the next start.
    private func keep(_ page: CountedPage, of query: CatalogQuery, for learner: UserID?, opening: OpeningPage) {
        opening.behind { try? await self.replica.keep(opening: page, of: query, learner: learner) }
    }

    /// The server's first page in place of the one drawn from disk: kept for the next start,
    /// and read again by the catalog if it differs (or the server could not be reached).
    private func reopen(_ query: CatalogQuery, for learner: UserID?, kept: CountedPage, opening: OpeningPage) async {
        let fresh = try? await keepOpening(query, for: learner, limit: max(kept.rows.count, openingRows), unless: kept)
        opening.finish()
        if fresh != kept { changed(.catalog) }
    }

    /// The server's first page of `query` with its count, kept as the opening page unless it
    /// is `kept` already.
    private func keepOpening(_ query: CatalogQuery, for learner: UserID?, limit: Int, unless kept: CountedPage)
        async throws(AppError) -> CountedPage
    {
        let page = try await server.countedPage(query, for: learner, at: .first, limit: limit)
        seen.remember(page.rows.lazy.map(\.course))
        if page != kept { try await replica.keep(opening: page, of: query, learner: learner) }
        return page
    }

    /// Whether `kept` has the rows a page of `limit` shows: as many, or every match.
    private static func covers(_ kept: CountedPage, _ limit: Int) -> Bool {
        kept.rows.count >= limit || kept.total == .exactly(kept.rows.count)
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
