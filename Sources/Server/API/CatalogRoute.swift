import HTTPTypes
import Hummingbird
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime

/// `GET /v1/courses`, the API's busiest address, answered by `CoursePageJSON` instead of the
/// generated operation's `JSONEncoder`. The query is read with the generated decoding, the
/// page made by the same `EduGoAPIHandler.catalogPage`, and the request goes through the same
/// list of operation middlewares as every generated route (`middlewares`, the one list both
/// are given), so only the writing differs.
struct CatalogRoute: Sendable {
    static let method = HTTPRequest.Method.get
    static let path = "/v1/courses"
    static let operationID = "listCourses"

    let handler: EduGoAPIHandler
    let middlewares: [any ServerMiddleware]

    func respond(to request: Request) async throws -> Response {
        let handler = self.handler
        let page: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?) = { head, _, _ in
            let answer = try await handler.catalogPage(try CatalogPageRequest(request: head))
            var headers = HTTPFields()
            headers[.contentType] = "application/json; charset=utf-8"
            return (HTTPResponse(status: .ok, headerFields: headers), HTTPBody(CoursePageJSON.write(answer)))
        }
        // The first middleware is the outermost, as the generated routes apply them.
        let chain = middlewares.reversed().reduce(page) { next, middleware in
            { head, body, metadata in
                try await middleware.intercept(head, body: body, metadata: metadata, operationID: Self.operationID, next: next)
            }
        }
        let (response, body) = try await chain(request.head, nil, ServerRequestMetadata())
        var bytes = ByteBuffer()
        if let body { bytes = ByteBuffer(bytes: try await [UInt8](collecting: body, upTo: .max)) }
        return Response(status: response.status, headers: response.headerFields, body: ResponseBody(byteBuffer: bytes))
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
