import Foundation
import HTTPTypes
import OpenAPIRuntime
import SharedKernel

/// A course (`getCourse`) and a lesson (`getLessonContent`) as the catalog's pages are
/// answered (`CatalogRoute`): kept in `cache` when there is one, each answer with its `ETag`
/// and `Cache-Control: no-cache`, and `If-None-Match` naming it answered `304` with no body.
/// The innermost of the operation middlewares: a bad bearer token is refused before a kept
/// page is looked up, as on every route.
struct PublicPageMiddleware: ServerMiddleware {
    var cache: PageCache?

    /// The most a page read into the cache may weigh: well past a course's or a lesson's
    /// largest (`ContentLimits`), a bound and not a size.
    static let largestPage = 4 << 20

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let key = Self.key(operationID: operationID, path: metadata.pathParameters) else {
            return try await next(request, body, metadata)
        }
        let written: PageCache.Page
        if let kept = cache?.page(for: key) {
            written = kept
        } else {
            let ticket = cache?.ticket()
            let (response, answer) = try await next(request, body, metadata)
            // Only a page is kept and tagged: a refusal is answered as it is.
            guard response.status == .ok, let answer else { return (response, answer) }
            written = PageCache.Page(body: try await [UInt8](collecting: answer, upTo: Self.largestPage))
            // Dropped with the course's catalog pages: a lesson shows no seats, but it is the
            // course's content, and a course changed is read as the course.
            if let ticket, let course = key.course { cache?.keep(written, showing: [course], for: key, ticket: ticket) }
        }
        return written.answer(to: request, cacheControl: "no-cache")
    }

    /// The page a request asks for, by the address's parameters; nil for any other operation,
    /// or parameters the operation will refuse.
    static func key(operationID: String, path: [String: Substring]) -> PublicPageKey? {
        guard let course = path["course_id"].flatMap({ $0.removingPercentEncoding }), !course.isEmpty else { return nil }
        switch operationID {
        case "getCourse":
            return .course(CourseID(course))
        case "getLessonContent":
            guard let text = path["lesson"], let lesson = Int(text), lesson >= 1 else { return nil }
            return .lesson(CourseID(course), lesson)
        default:
            return nil
        }
    }
}
