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
    /// never dropped because someone else is writing.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(AppError) -> T {
        let visit = use.arrive()
        defer { visit.leave() }
        return try await retryingWhileBusy(.saving) {
            try await self.writer.writeWithoutTransaction { db in
                visit.hold()
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

    private func retryingWhileBusy<T: Sendable>(
        _ operation: DataOperation,
        _ attempt: @Sendable () async throws -> T
    ) async throws(AppError) -> T {
        while true {
            do {
                return try await attempt()
            } catch let error as AppError {
                throw error
            } catch let error as DatabaseError where Self.isBusy(error) && !Task.isCancelled {
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
