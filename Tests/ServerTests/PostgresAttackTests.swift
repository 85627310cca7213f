import Foundation
import PostgresNIO
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

@testable import PostgresStore

/// Issue 22's attacks and faults on servers over one PostgreSQL database: limits that hold
/// across processes, log out that reaches every server, and the database going away.
@Suite(
    "Server on PostgreSQL: under attack and without its database", .serialized,
    .enabled(if: PostgresTestCluster.isAvailable || PostgresTestCluster.isRequired)
)
struct PostgresAttackTests {
    @Test("40 wrong passwords at once for one email, half through each server: at most 10 are checked")
    func concurrentGuessesAcrossServers() async throws {
        let (test, one, two) = try await TwoServersTests.twoServers()

        let answers = try await ServerAttackTests.concurrently(40) { number in
            try await RawConnection.exchange(
                (number.isMultiple(of: 2) ? one : two).baseURL, from: "127.0.0.2", method: "POST", path: "/v1/sessions",
                json: ["email": "demo@edugo.dev", "password": "wrong-\(number)"]
            )
        }

        let statuses = answers.map(\.status)
        #expect(statuses.filter { $0 == 401 }.count <= 10, "\(statuses)")
        #expect(statuses.filter { $0 == 401 }.count + statuses.filter { $0 == 429 }.count == 40, "\(statuses)")
        await test.drop()
    }

    @Test("log out through one server: the access token is refused at once by both")
    func logOutEverywhere() async throws {
        let (test, one, two) = try await TwoServersTests.twoServers()
        let (onOne, _) = try await HTTPClient(baseURL: one.baseURL).signedIn()
        var onTwo = HTTPClient(baseURL: two.baseURL)
        onTwo.token = onOne.token

        let before = try await onTwo.get("/v1/me")
        let signOut = try await onTwo.send("DELETE", "/v1/sessions/current")
        let afterOnOne = try await onOne.get("/v1/me")
        let afterOnTwo = try await onTwo.get("/v1/me")

        #expect(before.status == 200)
        #expect(signOut.status == 204)
        #expect(afterOnOne.status == 401 && afterOnOne.errorCode == "unauthorized")
        #expect(afterOnTwo.status == 401)
        await test.drop()
    }

    @Test(
        "the database gone: every route is 503 unavailable with Retry-After within the call limit, refresh and log out included; back without a restart"
    )
    func databaseGone() async throws {
        let (test, server, _) = try await TwoServersTests.twoServers()
        let (client, session) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let token = try #require(session["access_token"] as? String)
        let refresh = try #require(session["refresh_token"] as? String)
        let anonymous = HTTPClient(baseURL: server.baseURL)

        try await test.setReachable(false)
        let started = ContinuousClock.now
        let answers = [
            try await anonymous.send("POST", "/v1/sessions", json: ["email": "demo@edugo.dev", "password": "edugo-demo"]),
            try await anonymous.send(
                "POST", "/v1/accounts", json: ["name": "New Learner", "email": "new@example.com", "password": "password-1"]),
            try await anonymous.send("POST", "/v1/sessions/refresh", json: ["refresh_token": refresh]),
            try await anonymous.get("/v1/courses"),
            try await anonymous.get("/v1/courses/swift-concurrency"),
            try await client.get("/v1/me"),
            try await client.send("PUT", "/v1/me/favourites/swift-concurrency"),
            try await client.send("DELETE", "/v1/sessions/current"),
        ]
        let elapsed = ContinuousClock.now - started
        let health = try await anonymous.get("/health")
        try await test.setReachable(true)
        let back = try await Self.firstSuccess { try await client.get("/v1/me") }

        #expect(
            answers.map(\.status) == Array(repeating: 503, count: answers.count),
            "\(answers.map { String(decoding: $0.body, as: UTF8.self) })")
        #expect(answers.allSatisfy { $0.errorCode == "unavailable" && $0.headers["retry-after"] != nil })
        print("PostgreSQL gone: \(answers.count) requests answered 503 in \(elapsed)")
        #expect(health.status == 200, "liveness does not need the database")
        #expect(back.status == 200)
        ServerAttackTests.expectNoSecrets(in: server.log, token: token)
        await test.drop()
    }

    @Test("a statement that does not answer (a table locked): 503 within the call limit, not a wait without end")
    func databaseHangs() async throws {
        let (test, server, _) = try await TwoServersTests.twoServers()
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let release = Gate()
        let locked = Gate()

        async let holder: Void = test.database.transaction(.saving) { connection in
            try await connection.query("LOCK TABLE refresh_token IN ACCESS EXCLUSIVE MODE", logger: test.database.logger)
            await locked.open()
            await release.wait()
        }
        await locked.wait()
        let started = ContinuousClock.now
        let me = try await client.get("/v1/me")
        let elapsed = ContinuousClock.now - started
        await release.open()
        try await holder
        let after = try await client.get("/v1/me")

        #expect(me.status == 503 && me.errorCode == "unavailable")
        print("PostgreSQL locked: 503 after \(elapsed)")
        #expect(after.status == 200)
        await test.drop()
    }

    // MARK: - Helpers

    /// Asks until the answer is a success: the pool reconnects by itself, after a back-off.
    static func firstSuccess(_ ask: () async throws -> HTTPAnswer) async throws -> HTTPAnswer {
        var answer = try await ask()
        for _ in 0..<60 where answer.status >= 500 {
            try await Task.sleep(for: .milliseconds(250))
            answer = try await ask()
        }
        return answer
    }
}
