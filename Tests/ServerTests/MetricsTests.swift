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

/// A scrape read by the rules of Prometheus's text format 0.0.4: every line a comment, a
/// `# TYPE` given once per family before its samples, or a sample `name{label="value",…} number`;
/// a histogram's buckets cumulative, its `+Inf` bucket equal to its count. Anything else throws.
struct PrometheusText {
    struct Sample {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    private(set) var samples: [Sample] = []
    private(set) var types: [String: String] = [:]

    init(_ answer: HTTPAnswer) throws {
        guard answer.status == 200 else { throw ServerTestError("/metrics answered \(answer.status)") }
        guard answer.headers["content-type"]?.hasPrefix("text/plain") == true else {
            throw ServerTestError("content type \(answer.headers["content-type"] ?? "none")")
        }
        try self.init(text: String(decoding: answer.body, as: UTF8.self))
    }

    init(text: String) throws {
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("#") {
                let words = line.split(separator: " ", maxSplits: 3)
                guard words.count >= 2, words[0] == "#" else { continue }
                if words[1] == "TYPE" {
                    guard words.count == 4, Self.isName(words[2]),
                        ["counter", "gauge", "histogram", "summary", "untyped"].contains(words[3])
                    else { throw ServerTestError("bad TYPE line: \(line)") }
                    guard types.updateValue(String(words[3]), forKey: String(words[2])) == nil else {
                        throw ServerTestError("a second TYPE for \(words[2])")
                    }
                }
                continue
            }
            let sample = try Self.sample(line)
            guard types[Self.family(of: sample.name, types: types)] != nil else {
                throw ServerTestError("\(sample.name) has no TYPE before it")
            }
            samples.append(sample)
        }
        try checkHistograms()
    }

    /// The sample's value (0 when there is none: a counter not yet moved).
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double {
        samples.first { $0.name == name && $0.labels == labels }?.value ?? 0
    }

    func has(_ name: String, _ labels: [String: String] = [:]) -> Bool {
        samples.contains { $0.name == name && $0.labels == labels }
    }

    private static func family(of name: String, types: [String: String]) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let family = String(name.dropLast(suffix.count))
            if types[family] == "histogram" || types[family] == "summary" { return family }
        }
        return name
    }

    private static func isName(_ text: some StringProtocol) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter || first == "_" || first == ":" else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") }
    }

    private static func sample(_ line: Substring) throws -> Sample {
        var rest = line[...]
        let name = rest.prefix { $0 != "{" && $0 != " " }
        guard isName(name) else { throw ServerTestError("bad metric name in \(line)") }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = rest.prefix { $0 != "=" }
                guard isName(label), !label.contains(":") else { throw ServerTestError("bad label name in \(line)") }
                rest = rest.dropFirst(label.count)
                guard rest.hasPrefix("=\"") else { throw ServerTestError("no quoted value in \(line)") }
                rest = rest.dropFirst(2)
                var value = ""
                while let character = rest.first, character != "\"" {
                    rest = rest.dropFirst()
                    if character == "\\" {
                        guard let escaped = rest.first, ["\\", "\"", "n"].contains(escaped) else {
                            throw ServerTestError("bad escape in \(line)")
                        }
                        value.append(escaped == "n" ? "\n" : escaped)
                        rest = rest.dropFirst()
                    } else {
                        value.append(character)
                    }
                }
                guard rest.first == "\"" else { throw ServerTestError("unterminated value in \(line)") }
                rest = rest.dropFirst()
                guard labels.updateValue(value, forKey: String(label)) == nil else { throw ServerTestError("a label twice in \(line)") }
                if rest.first == "," {
                    rest = rest.dropFirst()
                } else if rest.first != "}" {
                    throw ServerTestError("bad labels in \(line)")
                }
            }
            rest = rest.dropFirst()
        }
        let fields = rest.split(separator: " ")
        guard (1...2).contains(fields.count), let value = number(fields[0]), fields.count == 1 || Int64(fields[1]) != nil else {
            throw ServerTestError("bad value in \(line)")
        }
        return Sample(name: String(name), labels: labels, value: value)
    }

    private static func number(_ text: Substring) -> Double? {
        switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(text)
        }
    }

    private func checkHistograms() throws {
        for (family, type) in types where type == "histogram" {
            let counts = samples.filter { $0.name == "\(family)_count" }
            for count in counts {
                let buckets = samples.filter { $0.name == "\(family)_bucket" && $0.labels.filter { $0.key != "le" } == count.labels }
                    .compactMap { bucket in bucket.labels["le"].flatMap { Self.number($0[...]) }.map { ($0, bucket.value) } }
                    .sorted { $0.0 < $1.0 }
                guard buckets.last?.0 == .infinity, buckets.last?.1 == count.value,
                    zip(buckets, buckets.dropFirst()).allSatisfy({ $0.1 <= $1.1 })
                else { throw ServerTestError("\(family)\(count.labels): buckets not cumulative up to its count") }
                guard samples.contains(where: { $0.name == "\(family)_sum" && $0.labels == count.labels }) else {
                    throw ServerTestError("\(family)\(count.labels) has no sum")
                }
            }
        }
    }
}
