import Dispatch
import Foundation
import GRDB
import Platform
import SharedKernel
import TestSupport
import Testing

@testable import Storage

/// Issue 39, item 7: the server's writes have a time limit (`WriteTimeLimit`). A write that
/// cannot take the lock within it is refused, and never lands once the lock goes. The app's
/// writes have none (`SQLiteEnrollmentRepositoryTests`: another program's lock is waited out).
@Suite("SQLite: a write's time limit")
struct WriteTimeLimitTests {
    @Test("another program holding the lock past the limit: the write is refused, and is not written when the lock goes")
    func lockedPastTheLimit() async throws {
        // SQLite waits for the lock on the wall clock (0.1 s here); the limit's own clock moves
        // only when that wait ends busy, so no other write of the test (its sign-in, its last
        // write) can outlast the limit on a stalled machine, as one did in a full run.
        let clock = ManualClock()
        let (sut, database, directory) = try makeSUT(
            limit: WriteTimeLimit(.milliseconds(100), clock: clock), waitingAgain: { clock.advance(by: .seconds(1)) })
        defer { directory.remove() }
        let user = try await database.signInDemo().id
        let other = try Self.connection(to: database)
        try other.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE") }

        let refused = await #expect(throws: AppError.self) { try await sut.setFavourite(true, userID: user, courseID: "open") }
        try other.inDatabase { db in try db.execute(sql: "COMMIT") }
        // The writer is serial: anything left of the refused write would have run before this one.
        try await database.write { _ in }

        #expect(Self.isTimedOut(refused))
        #expect(try await sut.favourites(userID: user).isEmpty)
    }

    @Test("a write whose turn comes after its limit, behind a long write, is refused unwritten")
    func queuedPastTheLimit() async throws {
        let clock = ManualClock()
        let (sut, database, directory) = try makeSUT(limit: WriteTimeLimit(.seconds(5), clock: clock))
        defer { directory.remove() }
        let user = try await database.signInDemo().id
        let release = DispatchSemaphore(value: 0)
        let long = Task { try await database.write { _ in release.wait() } }
        await database.use.waitUntil { $0.inUse == 1 }
        let queued = Task { try await sut.setFavourite(true, userID: user, courseID: "open") }
        await database.use.waitUntil { $0.waiting == 1 }

        clock.advance(by: .seconds(6))
        release.signal()
        try await long.value

        let refused = await #expect(throws: AppError.self) { try await queued.value }
        #expect(Self.isTimedOut(refused))
        #expect(try await sut.favourites(userID: user).isEmpty)
    }

    @Test("a write asked within its limit is written, however long the limit's clock then runs")
    func withinTheLimit() async throws {
        let clock = ManualClock()
        let (sut, database, directory) = try makeSUT(limit: WriteTimeLimit(.seconds(5), clock: clock))
        defer { directory.remove() }
        let user = try await database.signInDemo().id
        clock.advance(by: .seconds(60))

        try await sut.setFavourite(true, userID: user, courseID: "open")

        #expect(try await sut.favourites(userID: user).map(\.id) == ["open"])
    }

    // MARK: - Helpers

    /// What a write refused for its time limit throws: a storage failure (the server's 503).
    static func isTimedOut(_ error: AppError?) -> Bool {
        guard case .storage(.saving, let detail) = error else { return false }
        return detail.contains("time limit")
    }

    private func makeSUT(limit: WriteTimeLimit, waitingAgain: @escaping @Sendable () -> Void = {}) throws -> (
        SQLiteFavouritesRepository, AppDatabase, TemporaryDirectory
    ) {
        let directory = TemporaryDirectory()
        let database = try AppDatabase.open(
            directory: directory.url, passwordHasher: .fast,
            seedCatalog: {
                [CourseEntry(course: .fixture(id: "open", title: "Open")), CourseEntry(course: .fixture(id: "other", title: "Other"))]
            },
            busy: BusyPolicy(writeTimeLimit: limit, waitingAgain: waitingAgain))
        return (SQLiteFavouritesRepository(database: database), database, directory)
    }

    /// Another program's connection to the same file.
    static func connection(to database: AppDatabase) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true  // held open across calls on purpose
        return try DatabaseQueue(path: database.path, configuration: configuration)
    }
}
