import Foundation
import PostgresStore
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

/// What an operator watches: `GET /metrics` of the real server process, and `GET /ready`.
@Suite("Server: metrics and readiness", .serialized)
struct MetricsTests {
    @Test("/metrics parses as Prometheus text; its counters move with requests; its gauges tell streams, hashes, pool and catalog")
    func countersMove() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let client = HTTPClient(baseURL: server.baseURL)
        let before = try PrometheusText(try await client.get("/metrics"))

        for _ in 0..<3 { _ = try await client.get("/v1/courses?limit=5") }
        let missing = try await client.get("/v1/courses/no-such-course")
        let (signedIn, _) = try await client.signedIn()
        let stream = try await EventStreamConnection(to: server.baseURL, token: try #require(signedIn.token))
        let opening = try await stream.nextEvent()
        let after = try PrometheusText(try await client.get("/metrics"))

        let page = ["route": "/v1/courses", "method": "GET", "status": "200"]
        let notFound = ["route": "/v1/courses/{course_id}", "method": "GET", "status": "404"]
        #expect(missing.status == 404 && opening?.name == "ready")
        #expect(after.value("edugo_http_requests_total", page) - before.value("edugo_http_requests_total", page) == 3)
        #expect(after.value("edugo_http_requests_total", notFound) == 1, "a route by its template, never by an id")
        #expect(
            after.value("edugo_http_request_duration_seconds_count", page) - before.value("edugo_http_request_duration_seconds_count", page)
                == 3)
        #expect(
            after.value("edugo_http_request_duration_seconds_bucket", page.merging(["le": "+Inf"]) { $1 })
                == after.value("edugo_http_request_duration_seconds_count", page))
        #expect(after.types["edugo_http_requests_total"] == "counter" && after.types["edugo_http_request_duration_seconds"] == "histogram")
        #expect(after.value("edugo_http_requests_in_flight") == 1, "the scrape itself; a stream is counted apart")
        #expect(after.value("edugo_event_streams_open") == 1)
        #expect(after.value("edugo_catalog_courses") == 64)
        #expect(after.has("edugo_password_hashes", ["state": "running"]) && after.has("edugo_password_hashes", ["state": "queued"]))
        #expect(
            after.has("edugo_database_connections", ["state": "in_use"]) && after.has("edugo_database_connections", ["state": "waiting"]))
        #expect(after.value("edugo_http_requests_total", ["route": "/v1/sessions", "method": "POST", "status": "201"]) == 1)
    }

    @Test("--metrics-address serves /metrics, /ready and /health apart, and the API's address then has no /metrics")
    func metricsAddress() async throws {
        let server = try await ServerProcess(arguments: ["--metrics-address", "127.0.0.1:0"])
        let metricsURL = try #require(server.metricsURL)
        let apart = HTTPClient(baseURL: metricsURL)
        _ = try await HTTPClient(baseURL: server.baseURL).get("/v1/courses")

        let scrape = try PrometheusText(try await apart.get("/metrics"))
        let onTheAPI = try await HTTPClient(baseURL: server.baseURL).get("/metrics")
        let ready = try await apart.get("/ready")
        let health = try await apart.get("/health")
        let elsewhere = try await apart.get("/v1/courses")

        #expect(scrape.value("edugo_http_requests_total", ["route": "/v1/courses", "method": "GET", "status": "200"]) == 1)
        #expect(onTheAPI.status == 404 && onTheAPI.errorCode == "not_found")
        #expect(ready.status == 200 && health.status == 200)
        #expect(elsewhere.status == 404, "the metrics address serves nothing of the API")
    }

    @Test("a server on a public interface serves no /metrics unless told where; /ready and /health stay")
    func publicInterface() async throws {
        let server = try await ServerProcess(arguments: ["--host", "0.0.0.0"])
        let client = HTTPClient(baseURL: server.baseURL)

        let metrics = try await client.get("/metrics")
        let ready = try await client.get("/ready")

        #expect(metrics.status == 404)
        #expect(ready.status == 200 && ready.json["status"] as? String == "ok")
    }

    @Test(
        "/ready is 503 with Retry-After while PostgreSQL is away and 200 once it is back; /health stays 200",
        .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
    func readyFollowsPostgres() async throws {
        let test = try await PostgresTestDatabase.seeded()
        let server = try await ServerProcess(arguments: ["--database", test.url])
        let client = HTTPClient(baseURL: server.baseURL)
        let first = try await client.get("/ready")
        _ = try PrometheusText(try await client.get("/metrics"))

        try await test.setReachable(false)
        let started = ContinuousClock.now
        let away = try await client.get("/ready")
        let alive = try await client.get("/health")
        let scrape = try PrometheusText(try await client.get("/metrics"))
        let elapsed = ContinuousClock.now - started
        try await test.setReachable(true)
        let back = try await PostgresAttackTests.firstSuccess { try await client.get("/ready") }

        #expect(first.status == 200)
        #expect(away.status == 503 && away.errorCode == "unavailable" && away.headers["retry-after"] != nil, "\(away.status)")
        #expect(alive.status == 200, "liveness does not ask the database")
        #expect(scrape.value("edugo_http_requests_total", ["route": "/ready", "method": "GET", "status": "503"]) == 1)
        #expect(scrape.value("edugo_catalog_courses") == 64, "the last size read")
        #expect(back.status == 200)
        print("PostgreSQL away: /ready, /health and /metrics answered in \(elapsed)")
        await test.drop()
    }
}
