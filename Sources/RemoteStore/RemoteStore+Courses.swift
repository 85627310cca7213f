import AsyncHTTPClient
import EduGoAPI
import Foundation
import Logging
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import SharedKernel

// MARK: - CourseRepository

extension RemoteStore: CourseRepository {
    public func page(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError)
        -> [CatalogRow]
    {
        guard !query.matchesNothing, limit > 0 else { return [] }
        var rows: [CatalogRow] = []
        let forward =
            switch position {
            case .first, .after: true
            case .last, .before: false
            }
        // The API gives at most 100 a page; a longer page is read in steps. A refused course
        // leaves a gap that the next step fills; a server that sends little but refused
        // courses is asked a few steps more, not without end (the list then ends early).
        var next = position
        var stepsLeft = (limit + 99) / 100 + Self.stepsForRefusedCourses
        while rows.count < limit, stepsLeft > 0 {
            stepsLeft -= 1
            let wanted = min(limit - rows.count, 100)
            let page = try await coursePage(query, for: learner, at: next, limit: wanted)
            guard page.courses.count <= wanted else {
                throw refusedAnswer("a page of \(page.courses.count) courses where \(wanted) were asked for")
            }
            var keys: [CatalogKey] = []
            var found: [CatalogRow] = []
            for item in page.courses {
                guard let key = CatalogKey(pageKey: item.value2.key, sort: query.sort) else {
                    // A key the server could not have given: not the API's answer.
                    throw RemoteFailure.unreachable(detail: "a page key that is not the server's: \(item.value2.key.prefix(40))").appError
                }
                keys.append(key)
                if let course = accepted(item.value1) {
                    found.append(
                        CatalogRow(key: keys[keys.count - 1], course: course, added: item.value2.added.flatMap { $0 >= 0 ? $0 : nil }))
                }
            }
            if forward { rows += found } else { rows.insert(contentsOf: found, at: 0) }
            // The next step starts where the server says the catalog goes on: past the last
            // course it sent, refused or not. A page may hold fewer courses than asked and still
            // go on (a server keeps each answer under the terminal's cap, `CourseLimits.pageBytes`).
            guard let edgeText = forward ? page.next : page.previous, !edgeText.isEmpty else { break }
            guard let edge = CatalogKey(pageKey: edgeText, sort: query.sort) else {
                throw RemoteFailure.unreachable(detail: "a page key that is not the server's: \(edgeText.prefix(40))").appError
            }
            next = forward ? .after(edge) : .before(edge)
        }
        return rows
    }

    /// Steps a page may take beyond those its length needs, to fill the gaps of refused courses.
    static let stepsForRefusedCourses = 4

    public func count(_ query: CatalogQuery, for learner: UserID?) async throws(AppError) -> CatalogCount {
        guard !query.matchesNothing else { return .exactly(0) }
        // The order changes no count, and a search in title order is the cheapest to answer.
        let page = try await coursePage(query.unsorted, for: learner, at: .first, limit: 1)
        // No catalog has a negative count, or one past 2^31 courses: such a count is garbage.
        guard let total = Int(exactly: page.total), (0...Self.largestCount).contains(total) else {
            throw refusedAnswer("a catalog count of \(page.total)")
        }
        return page.totalIsLowerBound ? .atLeast(total) : .exactly(total)
    }

    /// The largest catalog count taken from a server.
    static let largestCount = Int(Int32.max)

    private func coursePage(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError)
        -> Components.Schemas.CoursePage
    {
        let text = query.understoodText
        let (after, before): (String?, String?) =
            switch position {
            case .first: (nil, nil)
            case .last: (nil, CatalogKey.pastEveryPageKey(query.sort))
            case .after(let key): (key.pageKey, nil)
            case .before(let key): (nil, key.pageKey)
            }
        let request = Operations.ListCourses.Input.Query(
            query: text.isEmpty ? nil : text, sort: query.sort == .title ? nil : query.sort.apiText, after: after, before: before,
            limit: Int64(limit))
        // The learner's own filters need the token; the rest of the catalog is public.
        let asker = query.dependsOnLearner ? learner : nil
        let key = CatalogRequest(query: request, learner: asker)
        let pages = self.pages
        let operation: @Sendable (Client) async throws -> Components.Schemas.CoursePage = { client in
            let kept = pages.kept(key)
            switch try await client.listCourses(query: request, headers: .init(ifNoneMatch: kept?.etag)) {
            case .notModified:
                guard let kept else { throw RemoteFailure.unreachable(detail: "304 for a catalog page this terminal never had") }
                return kept.value
            case .ok(let ok):
                let page = try ok.body.json
                if let etag = ok.headers.eTag { pages.keep(page, etag: etag, for: key) }
                return page
            case let other:
                _ = try other.ok
                throw RemoteFailure.unreachable(detail: "an answer the catalog route does not give")
            }
        }
        do {
            if let asker { return try await authorized(as: asker, operation) }
            return try await open(operation)
        } catch {
            throw error.appError
        }
    }

    public func course(id: CourseID) async throws(AppError) -> Course {
        try await syllabus(of: id).course
    }

    /// Asked with the `ETag` of the one kept, if any: a `304` is answered with it.
    public func syllabus(of id: CourseID) async throws(AppError) -> Syllabus {
        let kept = courses.kept(id)
        let answer: Revalidated<Components.Schemas.CourseDetail>
        do {
            answer = try await open { client in
                switch try await client.getCourse(path: .init(courseId: id.rawValue), headers: .init(ifNoneMatch: kept?.etag)) {
                case .notModified: return .notModified
                case .ok(let ok): return .sent(try ok.body.json, etag: ok.headers.eTag)
                case let other:
                    _ = try other.ok
                    throw RemoteFailure.unreachable(detail: "an answer the course route does not give")
                }
            }
        } catch {
            throw Self.appError(error, course: id)
        }
        switch answer {
        case .notModified:
            guard let kept else { throw refusedAnswer("304 for course \(id.rawValue.debugDescription), which this terminal never had") }
            return kept.value
        case .sent(let detail, let etag):
            let syllabus: Syllabus
            do {
                syllabus = try Syllabus.checked(detail)
            } catch {
                throw refused(error)
            }
            if let etag { courses.keep(syllabus, etag: etag, for: id) }
            return syllabus
        }
    }

    /// The failures that name the course the request was about.
    static func appError(_ failure: RemoteFailure, course: CourseID, lesson: Int = 0) -> AppError {
        guard case .api(_, let code, _, _) = failure else { return failure.appError }
        switch code {
        case .courseNotFound: return .courseNotFound(course)
        case .notEnrolled: return .notEnrolled(course)
        case .lessonNotFound: return .noSuchLesson(course, lesson)
        default: return failure.appError
        }
    }
}
