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

    /// Runs a write transaction off the main actor: all of it is stored, or none.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(AppError) -> T {
        do {
            return try await writer.write(body)
        } catch let error as AppError {
            throw error
        } catch {
            throw .storage(detail: Self.reason(error))
        }
    }
}
