import Foundation
import ServerTestSupport
import TestSupport
import Testing

/// Issue 39, items 2 and 3, on the real server process: one learner's streams from many
/// addresses, streams and idle connections filling the server, and the metrics listener
/// hoarded. Other clients come from other loopback addresses (127.0.0.2 and up).
@Suite("Server: connections hoarded", .serialized)
struct ConnectionHoardingTests {
    @Test("one learner holds at most 8 event streams, whatever their addresses: the 9th is 429 with Retry-After; one closed makes room")
    func streamsPerLearner() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory(learners: 1))
        let (demo, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let (other, _) = try await HTTPClient(baseURL: server.baseURL).signedIn(email: "learner1@example.com", password: "password-1")
        var streams: [EventStreamConnection] = []
        for index in 0..<8 {
            let stream = try await EventStreamConnection(to: server.baseURL, from: "127.0.0.\(10 + index)", token: try #require(demo.token))
            _ = try await stream.nextEvent()
            streams.append(stream)
        }

        let ninth = try await EventStreamConnection(to: server.baseURL, from: "127.0.0.30", token: try #require(demo.token))
        let otherLearner = await EventStreamTests.opens(server.baseURL, from: "127.0.0.31", token: try #require(other.token))
        streams.removeFirst().disconnect()
        let afterOneClosed = try await Self.eventually {
            await EventStreamTests.opens(server.baseURL, from: "127.0.0.32", token: try #require(demo.token))
        }

        #expect(ninth.status == 429)
        #expect(ninth.headers["retry-after"] != nil)
        #expect(otherLearner)
        #expect(afterOneClosed)
    }

    @Test("with event streams holding all they may and idle connections the rest, /health and a sign-in from another address are served")
    func reserveForShortRequests() async throws {
        // 32 connections: 24 for streams, 8 kept; past 28 open, a newcomer closes the idle one.
        let server = try await ServerProcess(
            directory: try await ServerProcess.preparedDirectory(),
            arguments: ["--max-connections", "32", "--streams-per-learner", "100", "--rate-limit", "0"])
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let token = try #require(client.token)
        var streams: [EventStreamConnection] = []
        for index in 0..<24 {
            let stream = try await EventStreamConnection(to: server.baseURL, from: "127.0.0.\(10 + index % 3)", token: token)
            _ = try await stream.nextEvent()
            streams.append(stream)
        }
        let overCap = try await EventStreamConnection(to: server.baseURL, from: "127.0.0.14", token: token)
        var idle: [RawConnection] = []
        for _ in 0..<40 { idle.append(try RawConnection(to: server.baseURL, from: "127.0.0.20")) }

        let health = try await RawConnection.exchange(server.baseURL, from: "127.0.0.21", method: "GET", path: "/health")
        let signIn = try await RawConnection.exchange(
            server.baseURL, from: "127.0.0.22", method: "POST", path: "/v1/sessions",
            json: ["email": "demo@edugo.dev", "password": "edugo-demo"])

        #expect(overCap.status == 503, "the 25th stream is refused: the rest is kept")
        #expect(overCap.headers["retry-after"] != nil)
        #expect(health.status == 200)
        #expect(signIn.status == 201)
        #expect(streams.count == 24 && idle.count == 40)
    }

    @Test("the metrics listener has the API's limits: an idle connection is closed after the timeout, and one address holds at most 64")
    func metricsListener() async throws {
        let server = try await ServerProcess(
            directory: try await ServerProcess.preparedDirectory(),
            arguments: ["--metrics-address", "127.0.0.1:0", "--connection-timeout", "2"])
        let metrics = try #require(server.metricsURL)
        let port = try #require(metrics.port)
        let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let silent = try RawConnection(to: base, readLimit: .seconds(20))
        let silentEnd = await silent.readUntilClosed()
        let before = server.openSockets

        var held: [RawConnection] = []
        for _ in 0..<200 { held.append(try RawConnection(to: base, from: "127.0.0.2")) }
        let bounded = try await Self.eventually { server.openSockets - before <= 64 }
        let scrape = try await RawConnection.exchange(base, from: "127.0.0.3", method: "GET", path: "/metrics")

        #expect(silentEnd.closed, "closed by the 2 s idle timeout")
        #expect(bounded, "the server holds \(server.openSockets - before) more sockets for one address's 200 connections")
        #expect(scrape.status == 200)
        #expect(held.count == 200)
    }

    // MARK: - Helpers

    /// Whether `condition` holds within 20 s, asked again every 20 ms: for what the server does
    /// on its own time (closing a connection it dropped).
    static func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }
}
