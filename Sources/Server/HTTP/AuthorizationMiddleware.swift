import HTTPTypes
import OpenAPIRuntime

/// Hands the request's `Authorization` and `Accept-Language` headers to the handler, which the generated operation
/// inputs leave out (security schemes are not parameters), and its target (path and query),
/// which they decode lossily: a list parameter present but empty (`course_ids=`) arrives as
/// none at all.
struct AuthorizationMiddleware: ServerMiddleware {
    @TaskLocal static var authorization: String?
    @TaskLocal static var target: String?
    /// The request's `Accept-Language`, for messages inside a successful answer (an
    /// operation's refusal), which `ErrorMiddleware` does not write.
    @TaskLocal static var acceptLanguage: String?

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await Self.$authorization.withValue(request.headerFields[.authorization]) {
            try await Self.$target.withValue(request.path) {
                try await Self.$acceptLanguage.withValue(request.headerFields[.acceptLanguage]) {
                    try await next(request, body, metadata)
                }
            }
        }
    }
}
