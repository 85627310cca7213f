import Logging
import PostgresNIO
import ServerTestSupport
import SharedKernel
import Synchronization
import TestSupport
import Testing

@testable import PostgresStore

/// What the PostgreSQL change log promises beyond the port contract: ids in the order the
/// changes commit, whatever order their transactions took them in; a commit seen by the next
/// read of the log; and old changes forgotten as the SQLite store forgets them.
@Suite(
    "PostgreSQL change log", .serialized,
    .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
struct PostgresChangeLogTests {
    @Test("a transaction notes its change only once every earlier noting one committed: no reader sees a later id before an earlier one")
    func idsInCommitOrder() async throws {
        let test = try await PostgresTestDatabase.migrated()
        let log = PostgresChangeLog(database: test.database)
        let start = try await log.newestChangeID()
        let held = Gate()

        // The first transaction notes a change, then stays open.
        let first = Task {
            try await test.database.client.withTransaction(logger: Self.logger) { connection in
                try await PostgresChangeRows.record([.catalog], in: connection, logger: Self.logger)
                await held.wait()
            }
        }
        await held.waitForArrivals(1)
        // The second notes one while the first is open: it waits for the first's commit, or
        // (with ids not in commit order) commits a later id first.
        let committed = Counter()
        let second = Task {
            try await test.database.client.withTransaction(logger: Self.logger) { connection in
                try await PostgresChangeRows.record([.course("swift-101")], in: connection, logger: Self.logger)
            }
            committed.add(1)
        }
        try await Self.waitUntil {
            if committed.value == 1 { return true }
            return try await Self.waitsForALock(test.database)
        }
        let meanwhile = try await Self.events(log, after: start)
        await held.open()
        try await first.value
        try await second.value
        let after = try await Self.events(log, after: start)

        #expect(meanwhile == [], "a reader saw \(meanwhile.map(\.id)) while an earlier id was not committed")
        #expect(after.map(\.change) == [.catalog, .course("swift-101")])
        #expect(after.map(\.id) == [start + 1, start + 2])
        await test.drop()
    }

    @Test("the changes of one transaction are noted in one statement, in the order given, ids one after another")
    func severalChangesInOrder() async throws {
        let test = try await PostgresTestDatabase.migrated()
        let log = PostgresChangeLog(database: test.database)
        let start = try await log.newestChangeID()
        let changes: [Change] = [
            .enrollment(UserID(7), "swift-101"), .course("swift-101"), .signedOut(UserID(7), signIn: "family"), .learning(UserID(7), nil),
        ]

        try await test.database.client.withTransaction(logger: Self.logger) { connection in
            try await PostgresChangeRows.record(changes, in: connection, logger: Self.logger)
        }

        let events = try await Self.events(log, after: start)
        #expect(events.map(\.change) == changes)
        #expect(events.map(\.id) == Array(start + 1...start + 4))
        await test.drop()
    }

    @Test("a store's transaction writes its notes after its body: a note taken early holds the notes' lock through nothing else")
    func notesLast() async throws {
        let test = try await PostgresTestDatabase.migrated()
        let log = PostgresChangeLog(database: test.database)
        let start = try await log.newestChangeID()
        let lockedInBody = try await test.database.transaction(.saving) { connection in
            try await PostgresChangeRows.record([.course("swift-101")], in: connection, logger: Self.logger)
            try await PostgresChangeRows.record([.catalog, .course("swift-101")], in: connection, logger: Self.logger)
            // Writes after the note: were it written, its lock would be held through them.
            return try await connection.query(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()", logger: Self.logger
            ).decode(Int.self).first { _ in true }
        }
        let events = try await Self.events(log, after: start)
        await test.drop()

        #expect(lockedInBody == 0, "no advisory lock held while the body runs")
        #expect(events.map(\.change) == [.course("swift-101"), .catalog], "each change once, in the order first noted")
    }

    @Test("a commit that notes a change, in this process or any other, wakes the listeners at the next read of the log, and only then")
    func commitsWakeListeners() async throws {
        let test = try await PostgresTestDatabase.migrated(courses: [(course: .fixture(id: "swift-101", title: "Swift 101"), lessons: nil)])
        let clock = ManualClock()
        let signal = PostgresChangeSignal(database: test.database, interval: .milliseconds(100), clock: clock)
        let wakes = Mutex(0)
        let polling = Task { await signal.poll { wakes.withLock { $0 += 1 } } }
        // The first read wakes them: what came before it was told to nobody. Each wait below
        // returns once a read is over and the poll sleeps again.
        await clock.waitForSleeper()
        #expect(wakes.withLock { $0 } == 1)
        clock.advance(by: .milliseconds(100))
        await clock.waitForSleeper()
        #expect(wakes.withLock { $0 } == 1, "a read that finds nothing new wakes nobody")

        try await PostgresFavouritesRepository(database: test.database).setFavourite(true, userID: UserID(1), courseID: "swift-101")
        clock.advance(by: .milliseconds(100))
        await clock.waitForSleeper()

        #expect(wakes.withLock { $0 } == 2)
        polling.cancel()
        await polling.value
        await test.drop()
    }

    @Test("changes more than 100,000 back are forgotten as SQLite forgets them: reading from before them is a gap")
    func forgetsOldChanges() async throws {
        let test = try await PostgresTestDatabase.migrated()
        let log = PostgresChangeLog(database: test.database)
        let newest = try await log.newestChangeID()
        // Enough changes that the next id is a multiple of 1,024 past what is kept.
        let target = (ChangeRetention.kept / 1_024 + 1) * 1_024
        _ = try await test.database.client.withConnection { connection in
            try await connection.query(
                "INSERT INTO change_event (kind) SELECT 'catalog' FROM generate_series(1, \(target - newest - 1))", logger: Self.logger)
        }

        try await test.database.client.withTransaction(logger: Self.logger) { connection in
            try await PostgresChangeRows.record([.catalog], in: connection, logger: Self.logger)
        }
        let horizon = target - ChangeRetention.kept

        #expect(try await log.newestChangeID() == target)
        #expect(try await log.changes(after: horizon - 1, for: nil, limit: 1) == .gap(newest: target))
        #expect(try await log.changes(after: horizon, for: nil, limit: 1) == .events([ChangeEvent(id: horizon + 1, change: .catalog)]))
        await test.drop()
    }

    // MARK: - Helpers

    static let logger = Logger(label: "change-log-tests", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Every change after `id` (a handful), or a failure for a gap.
    static func events(_ log: PostgresChangeLog, after id: Int64) async throws -> [ChangeEvent] {
        guard case .events(let events) = try await log.changes(after: id, for: nil, limit: 100) else {
            throw ServerTestError("a gap after \(id)")
        }
        return events
    }

    /// Whether a session of the database waits for a lock now.
    static func waitsForALock(_ database: PostgresStore.PostgresDatabase) async throws -> Bool {
        try await database.client.withConnection { connection in
            try await connection.query(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'", logger: logger
            ).decode(Int.self).first { _ in true } ?? 0 > 0
        }
    }

    /// Waits, checking every few milliseconds, until `condition` holds (at most 30 s).
    static func waitUntil(_ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw ServerTestError("the condition never held") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
