import GRDB
import SharedKernel

/// The changes SQLite's writes noted (`change_event`), for the feed of another instance on
/// the same data directory and for a server's event streams.
public struct SQLiteChangeLog: ChangeLog {
    private let database: AppDatabase
    private let waitsForWriters: Bool

    /// `waitsForWriters`: each read first holds the write lock for a moment, for a reader woken
    /// by the database's file events (`SQLiteChangeSignal`): the commit whose log write woke it
    /// may not be published to readers yet (SQLite syncs the log first), and the lock waits
    /// for it.
    public init(database: AppDatabase, waitsForWriters: Bool = false) {
        self.database = database
        self.waitsForWriters = waitsForWriters
    }

    public func newestChangeID() async throws(AppError) -> Int64 {
        try await read { db in try ChangeRows.newestID(in: db) }
    }

    public func changes(after id: Int64, for learner: UserID?, limit: Int) async throws(AppError) -> ChangeBatch {
        try await read { db in try ChangeRows.changes(after: id, for: learner, limit: max(1, limit), in: db) }
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(AppError) -> T {
        if waitsForWriters { return try await database.write(body) }
        return try await database.read(body)
    }
}
