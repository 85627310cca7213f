import EduGoAPI
import HTTPTypes
import OpenAPIRuntime

/// The API's addresses and the methods each takes, read from the generated registration
/// itself, so they can never drift from openapi.yaml: a known address asked with any other
/// method is 405 with `Allow`, not 404.
struct KnownRoutes: Sendable {
    private let routes: [(segments: [Substring], methods: Set<HTTPRequest.Method>)]

    init(_ api: some APIProtocol) throws {
        let recorder = RouteRecorder()
        try api.registerHandlers(on: recorder)
        routes = recorder.routes.map { (path, methods) in (path.split(separator: "/"), methods) }
    }

    /// The methods `path` takes, or `nil` when it is not an address of the API.
    func methods(for path: String) -> Set<HTTPRequest.Method>? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let found = routes.first { route in
            route.segments.count == segments.count
                && zip(route.segments, segments).allSatisfy { template, actual in
                    template.hasPrefix("{") ? !actual.isEmpty : template == actual
                }
        }
        return found?.methods
    }
}

/// A transport that only writes down what would be registered.
private final class RouteRecorder: ServerTransport {
    private(set) var routes: [String: Set<HTTPRequest.Method>] = [:]

    func register(
        _ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
        method: HTTPRequest.Method,
        path: String
    ) throws {
        routes[path, default: []].insert(method)
    }
}
