import Foundation
import GRDB
import Logging
import Platform
import ServerComposition
import ServerTestSupport
import ServiceLifecycle
import SharedKernel
import Storage
import TestSupport
import Testing

@testable import Server

/// Issue 39, item 7: with another program holding SQLite's write lock, a write the server
/// cannot start within its time limit answers 503 `unavailable` with `Retry-After`, as on
/// PostgreSQL, and does not land once the lock goes (its client gave up and was told it failed).
@Suite("Server: SQLite locked by another program", .serialized)
struct SQLiteLockTests {
    @Test("PUT a favourite past the write's limit: 503 unavailable with Retry-After, and not written when the lock goes")
    func favouriteInProcess() async throws {
        // SQLite waits for the lock on the wall clock: a short limit, and only the outcome is checked.
        let (client, database, stop, directory) = try await makeSUT(limit: WriteTimeLimit(.milliseconds(100)))
        defer { directory.remove() }
        let lock = try Self.connection(to: database.path)
        try lock.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE") }

        let refused = try await client.send("PUT", "/v1/me/favourites/docker-essentials")
        try lock.inDatabase { db in try db.execute(sql: "COMMIT") }
        let added = try await client.send("PUT", "/v1/me/favourites/swift-fundamentals")
        let favourites = try await client.get("/v1/me/favourites")
        await stop()

        #expect(refused.status == 503 && refused.errorCode == "unavailable")
        #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 > 0)
        #expect(added.status == 204)
        #expect((favourites.json["courses"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["swift-fundamentals"])
    }

    @Test("the edugo-server binary on SQLite: a write held up past 5 s by another program's lock is a 503, and never lands")
    func binary() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let lock = try Self.connection(to: server.directory.url.appendingPathComponent(AppDatabase.fileName).path)
        try lock.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE") }

        let refused = try await client.send("PUT", "/v1/me/enrollments/html-css-basics")
        try lock.inDatabase { db in try db.execute(sql: "COMMIT") }
        let favourite = try await client.send("PUT", "/v1/me/favourites/docker-essentials")
        let enrollment = try await client.get("/v1/me/enrollments/html-css-basics")

        #expect(refused.status == 503 && refused.errorCode == "unavailable")
        #expect(refused.headers["retry-after"] != nil)
        #expect(favourite.status == 204, "the server writes again once the lock is gone")
        #expect(enrollment.status == 404 && enrollment.errorCode == "not_enrolled")
    }

    // MARK: - Helpers

    /// The server in this process over a database whose writes have `limit`, with the demo
    /// learner signed in; `stop` ends it.
    private func makeSUT(limit: WriteTimeLimit) async throws -> (HTTPClient, AppDatabase, @Sendable () async -> Void, TemporaryDirectory) {
        let directory = TemporaryDirectory(prefix: "edugo-lock-tests")
        let hasher = PasswordHasher(rounds: 1)
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: hasher, busy: BusyPolicy(writeTimeLimit: limit))
        let running = try await ListeningService.start { onListening in
            try await EduGoServer.application(
                database: database, dataDirectory: directory.url, passwordHasher: hasher,
                logger: Logger(label: "lock-tests", factory: { _ in SwiftLogNoOpLogHandler() }), onListening: onListening)
        }
        let (client, _) = try await HTTPClient(baseURL: running.url).signedIn()
        let stop: @Sendable () async -> Void = { await running.stop() }
        return (client, database, stop, directory)
    }

    /// Another program's connection to the server's database file.
    static func connection(to path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true  // held open across calls on purpose
        // The server takes the write lock for a moment on its own (its change log's reads
        // wait for writers): the test's BEGIN EXCLUSIVE waits its turn instead of failing.
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}
