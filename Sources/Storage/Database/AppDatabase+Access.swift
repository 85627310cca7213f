import GRDB
import SharedKernel

extension AppDatabase {
    /// Runs a read off the main actor and turns database failures into `AppError`.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(AppError) -> T {
        do {
            return try await writer.read(body)
        } catch {
            throw .storage(detail: Self.reason(error))
        }
    }

    /// Runs a write transaction off the main actor: all of it is stored, or none. The
    /// transaction is IMMEDIATE, so its reads and writes see one state of the database even
    /// when another instance writes to the same file; a busy database is waited for.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(AppError) -> T {
        do {
            return try await writer.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch let error as AppError {
            throw error
        } catch {
            throw .storage(detail: Self.reason(error))
        }
    }
}
