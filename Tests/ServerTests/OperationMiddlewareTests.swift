import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import Platform
import ServerComposition
import ServerTestSupport
import ServiceLifecycle
import Storage
import Synchronization
import TestSupport
import Testing

@testable import Server

/// `GET /v1/courses` is answered by a route of the server's own (`CatalogRoute`), beside the
/// generated ones: both must run the one list of operation middlewares, or a middleware
/// added later would silently miss the busiest address.
@Suite("Operation middlewares")
struct OperationMiddlewareTests {
    @Test("every operation, the catalog's own route included, passes through each middleware of the list once")
    func oneList() async throws {
        let directory = TemporaryDirectory(prefix: "edugo-middleware-tests")
        defer { directory.remove() }
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: PasswordHasher(rounds: 1), seedCatalog: { [] })
        let seen = SeenOperations()
        let stores = try PlatformStores.sqlite(
            database, dataDirectory: directory.url, passwordHasher: PasswordHasher(rounds: 1), now: Date.init)
        let server = try await ListeningService.start { onListening in
            try await EduGoServer.application(
                stores: stores, host: "127.0.0.1", port: 0, accessTokenTTL: 900, limits: ServerLimits(), now: Date.init,
                logger: Logger(label: "middleware-tests", factory: { _ in SwiftLogNoOpLogHandler() }),
                operationMiddlewares: [AuthorizationMiddleware(), seen],
                onListening: .init(api: onListening)
            )
        }
        let client = HTTPClient(baseURL: server.url)

        let (catalog, me, health) = try await server.stopping {
            (try await client.get("/v1/courses?limit=5"), try await client.get("/v1/me"), try await client.get("/health"))
        }

        #expect(catalog.status == 200)
        #expect(me.status == 401)
        #expect(health.status == 200)
        #expect(seen.operations == ["listCourses", "getMe", "getHealth"])
    }
}

/// Notes the operation of every request that passes through it.
private final class SeenOperations: ServerMiddleware, Sendable {
    private let seen = Mutex<[String]>([])

    var operations: [String] { seen.withLock { $0 } }

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        seen.withLock { $0.append(operationID) }
        return try await next(request, body, metadata)
    }
}
