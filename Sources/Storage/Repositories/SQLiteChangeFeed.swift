import GRDB
import SharedKernel

/// The local store's news: whenever the database is written (by this instance, another one
/// on the same data directory, or `tui import-courses`), the changes noted since the last
/// read, for one learner and the catalog.
public struct SQLiteChangeFeed: ChangeFeed {
    private let database: AppDatabase
    private let signal: SQLiteChangeSignal
    /// Changes read at a time.
    static let batch = 500

    public init(database: AppDatabase) {
        self.database = database
        signal = SQLiteChangeSignal(database: database)
    }

    /// News of what is committed after this call. The watch starts first, then the newest id
    /// is read (a plain read, which never waits for a writer), then one check runs at once: a
    /// commit still being published when the id was read is caught by it.
    public func news(for learner: UserID) -> AsyncStream<ChangeNews> {
        let wakeups = signal.wakeups()
        let start = try? database.writer.read { db in try ChangeRows.newestID(in: db) }
        let (news, continuation) = AsyncStream.makeStream(of: ChangeNews.self)
        let reader = Task { [database] in
            var last = start
            var checks = wakeups.makeAsyncIterator()
            repeat {
                while true {
                    let after = last
                    guard
                        let batch = try? await Self.read(
                            database,
                            { db in
                                // Without a start (it could not be read), everything may have changed.
                                guard let after else { return ChangeBatch.gap(newest: try ChangeRows.newestID(in: db)) }
                                return try ChangeRows.changes(after: after, for: learner, limit: Self.batch, in: db)
                            })
                    else { break }
                    switch batch {
                    case .gap(let newest):
                        last = newest
                        continuation.yield(.readEverything)
                    case .events(let events):
                        guard let newest = events.last else { break }
                        last = newest.id
                        continuation.yield(.changed(events.map(\.change)))
                        if events.count == Self.batch { continue }
                    }
                    break
                }
            } while await checks.next() != nil
            continuation.finish()
        }
        continuation.onTermination = { _ in reader.cancel() }
        return news
    }

    /// Reads holding the write lock for a moment: a commit whose log write woke us may not be
    /// published to readers yet (SQLite syncs the log first), and the lock waits for it.
    private static func read<T: Sendable>(_ database: AppDatabase, _ body: @escaping @Sendable (Database) throws -> T)
        async throws(AppError) -> T
    {
        try await database.write(body)
    }
}
