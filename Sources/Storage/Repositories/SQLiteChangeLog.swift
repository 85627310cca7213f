import GRDB
import SharedKernel

/// The changes SQLite's writes noted (`change_event`), for the feed of another instance on
/// the same data directory and for a server's event streams.
public struct SQLiteChangeLog: ChangeLog {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func newestChangeID() async throws(AppError) -> Int64 {
        try await database.read { db in try ChangeRows.newestID(in: db) }
    }

    public func changes(after id: Int64, for learner: UserID?, limit: Int) async throws(AppError) -> ChangeBatch {
        try await database.read { db in try ChangeRows.changes(after: id, for: learner, limit: max(1, limit), in: db) }
    }
}
