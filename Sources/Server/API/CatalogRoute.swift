import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
import SharedKernel

/// `GET /v1/courses`, the API's busiest address, answered by `CoursePageJSON` instead of the
/// generated operation's `JSONEncoder`. The query is read with the generated decoding, the
/// page made by the same `EduGoAPIHandler.catalogPage`, and the request goes through the same
/// list of operation middlewares as every generated route (`middlewares`, the one list both
/// are given), so only the writing differs. A page that depends on no learner is kept in
/// `cache`, when there is one; every page carries its `ETag`, and `If-None-Match` naming it
/// is answered `304` with no body.
struct CatalogRoute: Sendable {
    static let method = HTTPRequest.Method.get
    static let path = "/v1/courses"
    static let operationID = "listCourses"

    let handler: EduGoAPIHandler
    let middlewares: [any ServerMiddleware]
    var cache: PageCache?

    func respond(to request: Request) async throws -> Response {
        let (handler, cache) = (handler, cache)
        let page: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?) = { head, _, _ in
            let ask = try await handler.catalogAsk(try CatalogPageRequest(request: head))
            let key = ask.publicKey.map(PublicPageKey.catalog)
            let written: PageCache.Page
            if let key, let kept = cache?.page(for: key) {
                written = kept
            } else {
                let ticket = key == nil ? nil : cache?.ticket()
                let answer = try await handler.catalogPage(ask)
                written = PageCache.Page(body: CoursePageJSON.write(answer))
                if let key, let ticket { cache?.keep(written, showing: answer.rows.map(\.course.id), for: key, ticket: ticket) }
            }
            return written.answer(to: head, cacheControl: key == nil ? "private, no-cache" : "no-cache")
        }
        // The first middleware is the outermost, as the generated routes apply them.
        let chain = middlewares.reversed().reduce(page) { next, middleware in
            { head, body, metadata in
                try await middleware.intercept(head, body: body, metadata: metadata, operationID: Self.operationID, next: next)
            }
        }
        let (response, body) = try await chain(request.head, nil, ServerRequestMetadata())
        // Written once into the answer's buffer (a kept page is not copied on the way).
        var bytes = ByteBuffer()
        if let body { for try await chunk in body { bytes.writeBytes(chunk) } }
        return Response(status: response.status, headers: response.headerFields, body: ResponseBody(byteBuffer: bytes))
    }

    /// Whether an `If-None-Match` value names `etag`: `*`, or one of its comma-separated tags
    /// (a weak `W/` one compares by its tag, as RFC 9110 says for `If-None-Match`). A value
    /// percent-encoded is read decoded: OpenAPI clients encode a header parameter's quotes.
    static func names(_ value: String, _ etag: String) -> Bool {
        let value = value.contains("%") ? value.removingPercentEncoding ?? value : value
        return value.split(separator: ",").contains { part in
            var tag = part.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == "*" || tag == etag
        }
    }
}

/// Registers the generated operations on the router, leaving out the one the server answers
/// with a route of its own (the router refuses two handlers for one address and method).
struct GeneratedRoutes<Context: RequestContext>: ServerTransport {
    let router: Router<Context>
    let leftOut: (method: HTTPRequest.Method, path: String)

    func register(
        _ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
        method: HTTPRequest.Method,
        path: String
    ) throws {
        guard (method, path) != leftOut else { return }
        router.register(handler, method: method, path: path)
    }
}
