import HTTPTypes
import Hummingbird
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime

/// `GET /v1/courses`, the API's busiest address, answered by `CoursePageJSON` instead of the
/// generated operation's `JSONEncoder`. The query is read with the generated decoding and the
/// page made by the same `EduGoAPIHandler.catalogPage`, so only the writing differs. The
/// generated operation's middlewares do not run here: the one there is (the bearer header as
/// a task-local) is applied below, and one added later must be added here too.
struct CatalogRoute: Sendable {
    static let method = HTTPRequest.Method.get
    static let path = "/v1/courses"

    let handler: EduGoAPIHandler

    func respond(to request: Request) async throws -> Response {
        let asked = try CatalogPageRequest(request: request.head)
        let answer = try await AuthorizationMiddleware.$authorization.withValue(request.headers[.authorization]) {
            try await handler.catalogPage(asked)
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: CoursePageJSON.write(answer))))
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
