import SharedKernel

/// The changes PostgreSQL's writes noted (`change_event`), in the order they committed, for
/// the event streams of every server of the database.
public struct PostgresChangeLog: ChangeLog {
    private let database: PostgresDatabase

    public init(database: PostgresDatabase) {
        self.database = database
    }

    public func newestChangeID() async throws(AppError) -> Int64 {
        let logger = database.logger
        return try await database.read { connection in try await PostgresChangeRows.newestID(in: connection, logger: logger) }
    }

    public func changes(after id: Int64, for learner: UserID?, limit: Int) async throws(AppError) -> ChangeBatch {
        let logger = database.logger
        return try await database.read { connection in
            try await PostgresChangeRows.changes(after: id, for: learner, limit: max(1, limit), in: connection, logger: logger)
        }
    }
}
