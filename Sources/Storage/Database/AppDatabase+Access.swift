import GRDB
import SharedKernel

extension AppDatabase {
    /// Runs a read off the main actor and turns database failures into `AppError`. A database
    /// busy beyond the busy timeout is waited for again, never reported.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(AppError) -> T {
        let visit = use.arrive()
        defer { visit.leave() }
        return try await retryingWhileBusy(.reading) {
            try await self.writer.read { db in
                visit.hold()
                return try body(db)
            }
        }
    }

    /// Whether the database answers: a read of its schema (`GET /ready`).
    public func ping() async throws(AppError) {
        _ = try await read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
    }

    /// Runs a write transaction off the main actor: all of it is stored, or none. The
    /// transaction is IMMEDIATE, so its reads and writes see one state of the database even
    /// when another instance writes to the same file. Another process holding the write lock,
    /// however long, makes this wait (the busy timeout, then again), never fail: a write is
    /// never dropped because someone else is writing. With a `WriteTimeLimit` (the server),
    /// a write that cannot start within it is refused (`.storage`), written neither now nor later.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(AppError) -> T {
        // From when it is asked, before it waits for its turn: a write queued behind others
        // spends its time there too.
        let limit = busy.writeTimeLimit
        let deadline = limit.map { $0.stopwatch.elapsed + $0.limit }
        let visit = use.arrive()
        defer { visit.leave() }
        return try await retryingWhileBusy(.saving, until: deadline) {
            try await self.writer.writeWithoutTransaction { db in
                visit.hold()
                if let limit, let deadline {
                    let left = deadline - limit.stopwatch.elapsed
                    guard left > .zero else { throw Self.writeTimedOut(limit) }
                    // SQLite waits for the lock no longer than the write has left.
                    let milliseconds = max(1, Int((left / .milliseconds(1)).rounded(.up)))
                    try db.execute(sql: "PRAGMA busy_timeout = \(milliseconds)")
                }
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                guard let result else { throw AppError.storage(.saving, detail: "a transaction ended without its result") }
                return result
            }
        }
    }

    /// A write whose time ran out: the server answers 503 `unavailable`.
    static func writeTimedOut(_ limit: WriteTimeLimit) -> AppError {
        .storage(.saving, detail: "the database stayed locked past the write's time limit (\(limit.limit)); it was not written")
    }

    private func retryingWhileBusy<T: Sendable>(
        _ operation: DataOperation,
        until deadline: Duration? = nil,
        _ attempt: @Sendable () async throws -> T
    ) async throws(AppError) -> T {
        while true {
            do {
                return try await attempt()
            } catch let error as AppError {
                throw error
            } catch let error as DatabaseError where Self.isBusy(error) && !Task.isCancelled {
                if let limit = busy.writeTimeLimit, let deadline, limit.stopwatch.elapsed >= deadline { throw Self.writeTimedOut(limit) }
                busy.waitingAgain()
                continue
            } catch is CancellationError {
                // The caller stopped waiting (a newer query replaced this one).
                throw .cancelled
            } catch {
                throw .storage(operation, detail: Self.reason(error))
            }
        }
    }

    static func isBusy(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }
}
