import Foundation
import Hummingbird
import Logging
import RemoteStore
import ServerTestSupport
import SharedKernel
import Synchronization
import TestSupport
import Testing

/// A server that is not an EduGo server, or not a well one: every answer that is not the
/// API's is the server being unusable (`.connectivity`), never a crash and never a hang.
@Suite("Remote faults")
struct RemoteFaultTests {
    /// Signs in (its session is well formed), then answers each read with another fault.
    enum MisbehavingServer {
        static func start() async throws -> RunningService {
            let router = Router()
            router.post("/v1/sessions") { _, _ in
                Self.json(
                    """
                    {"access_token": "a", "refresh_token": "r", "expires_in": 900,
                     "user": {"id": 1, "name": "Demo Learner", "email": "demo@edugo.dev", "role": "learner", "member_since": "2026-01-01T00:00:00Z"}}
                    """, status: .created)
            }
            router.get("/v1/courses") { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "text/html"],
                    body: .init(byteBuffer: ByteBuffer(string: "<html><body>Welcome to nginx!</body></html>")))
            }
            router.get("/v1/courses/:id") { request, context -> Response in
                guard context.parameters.get("id") == "silent" else {
                    return Self.json("Internal Server Error", status: .internalServerError)
                }
                await RunningService.untilShutdown()
                return Self.json("{}")
            }
            router.get("/v1/me/favourites") { _, _ in Self.json(#"{"courses": [{"id": 7}]}"#) }
            router.get("/v1/me") { _, _ in Self.json(#"{"error": "teapot", "message": "I am a teapot"}"#, status: .badGateway) }
            return try await RouterServer.start(router)
        }

        static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
            Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }

    @Test("HTML, a 500, JSON of another shape, an unknown error on a 502, and silence are all connectivity")
    func garbage() async throws {
        let server = try await MisbehavingServer.start()
        try await server.stopping {
            let client = TemporaryDirectory(prefix: "edugo-remote-fault")
            defer { client.remove() }
            let store = RemoteStore(
                server: server.url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
            let learner = try await store.signIn(email: "demo@edugo.dev", password: "edugo-demo")

            await #expect(throws: AppError.connectivity) { try await store.page(matching: "", at: .first, limit: 20) }
            await #expect(throws: AppError.connectivity) { try await store.course(id: "c-1") }
            await #expect(throws: AppError.connectivity) { try await store.favourites(userID: learner.id) }
            await #expect(throws: AppError.connectivity) { try await store.user(id: learner.id) }
            // Silence: only this store has a short limit, so a slow machine cannot fail the rest.
            let impatient = RemoteStore(
                server: server.url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimit: .milliseconds(300))
            await #expect(throws: AppError.connectivity) { try await impatient.course(id: "silent") }
        }
    }

    @Test("a time limit on a clock the caller holds: silence is waited for until that clock passes the limit, then connectivity")
    func heldTimeLimit() async throws {
        let server = try await MisbehavingServer.start()
        try await server.stopping {
            let client = TemporaryDirectory(prefix: "edugo-remote-fault")
            defer { client.remove() }
            let held = ManualClock()
            let store = RemoteStore(server: server.url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimitClock: held)

            let silent = Task { try await store.course(id: "silent") }
            await held.waitForSleeper()
            held.advance(by: RemoteStore.defaultTimeLimit - .milliseconds(1))
            #expect(held.sleeperCount == 1, "still waiting for the answer")
            held.advance(by: .milliseconds(1))

            await #expect(throws: AppError.connectivity) { try await silent.value }
        }
    }

    @Test("a client shut down before its first request sends nothing: each request fails, none reaches the server")
    func shutDownUnused() async throws {
        let asked = Mutex(0)
        let router = Router()
        router.post("/v1/sessions") { _, _ -> Response in
            asked.withLock { $0 += 1 }
            return MisbehavingServer.json(#"{"error": "teapot", "message": "I am a teapot"}"#, status: .badGateway)
        }
        let server = try await RouterServer.start(router)
        try await server.stopping {
            let client = TemporaryDirectory(prefix: "edugo-remote-shut")
            defer { client.remove() }
            // The client is made by the first request; shut down before one, it is never made.
            let http = RemoteHTTPClient()
            await http.shutdown()
            let store = RemoteStore(server: server.url, dataDirectory: client.url, httpClient: http)
            await #expect(throws: AppError.self) { try await store.signIn(email: "demo@edugo.dev", password: "edugo-demo") }
            #expect(asked.withLock { $0 } == 0)
        }
    }

    @Test("no server at all: connectivity, and signing in reports it")
    func nobodyThere() async throws {
        // Port 1 on loopback: privileged, and nothing here listens on it.
        let client = TemporaryDirectory(prefix: "edugo-remote-none")
        defer { client.remove() }
        let store = RemoteStore(server: URL(string: "http://127.0.0.1:1")!, dataDirectory: client.url, httpClient: testHTTPClient)
        await #expect(throws: AppError.connectivity) { try await store.signIn(email: "demo@edugo.dev", password: "edugo-demo") }
        await #expect(throws: AppError.connectivity) { try await store.page(matching: "", at: .first, limit: 20) }
        #expect(try await store.restoreSession() == nil)
    }
}

@Suite("Remote cancellation")
struct RemoteCancellationTests {
    @Test("a request made obsolete (a newer keystroke cancels it) ends at once as cancelled, not at the time limit")
    func cancelled() async throws {
        let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
        let router = Router()
        router.get("/v1/courses") { _, _ -> Response in
            arrived.yield()
            await RunningService.untilShutdown()
            return Response(status: .ok)
        }
        let server = try await RouterServer.start(router)
        let url = server.url
        try await server.stopping {
            let client = TemporaryDirectory(prefix: "edugo-remote-cancel")
            defer { client.remove() }
            let store = RemoteStore(server: url, dataDirectory: client.url, httpClient: testHTTPClient)

            let search = Task { () async throws(AppError) -> [CatalogRow] in
                try await store.page(matching: "slow", at: .first, limit: 20)
            }
            var waiting = arrivals.makeAsyncIterator()
            await waiting.next()
            search.cancel()
            // Without cancellation reaching the request this would be .connectivity after 10 s.
            await #expect(throws: AppError.cancelled) { try await search.value }
        }
    }
}

@Suite("Remote reachability")
struct RemoteReachabilityTests {
    @Test("the app is told once when the server stops answering and once when it answers again")
    func events() async throws {
        // A server whose health a test switches: a 503 page while it is "down".
        let down = Mutex(false)
        let router = Router()
        router.get("/health") { _, _ -> Response in
            if down.withLock({ $0 }) {
                return Response(
                    status: .serviceUnavailable, headers: [.contentType: "text/html"],
                    body: .init(byteBuffer: ByteBuffer(string: "<h1>down</h1>")))
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"status": "ok"}"#)))
        }
        let server = try await RouterServer.start(router)
        let url = server.url
        try await server.stopping {
            let client = TemporaryDirectory(prefix: "edugo-remote-reach")
            defer { client.remove() }
            let store = RemoteStore(server: url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
            var events = store.events.makeAsyncIterator()

            #expect(await store.probe())
            down.withLock { $0 = true }
            #expect(!(await store.probe()))
            #expect(!(await store.probe()))
            down.withLock { $0 = false }
            #expect(await store.probe())
            #expect(await store.probe())
            #expect(await events.next() == .unreachable)
            #expect(await events.next() == .reachable, "one event per change, not one per failure")
        }
    }
}
