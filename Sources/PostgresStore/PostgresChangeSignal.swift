import Logging
import PostgresNIO
import SharedKernel
import Synchronization

/// Wakes whoever listens when any process commits a change to the database: every noting
/// transaction notifies `PostgresChangeRows.channel` at its commit, and this listens on one
/// connection of the pool (`LISTEN`). Nothing polls; an idle database costs nothing.
public struct PostgresChangeSignal: Sendable {
    private let database: PostgresDatabase
    private let clock: any Clock<Duration>

    /// `clock`: what the waits before listening again sleep on.
    public init(database: PostgresDatabase, clock: any Clock<Duration> = ContinuousClock()) {
        self.database = database
        self.clock = clock
    }

    /// One wake-up (coalesced) after each commit that noted changes, and one each time the
    /// listening starts, since commits made while nobody listened were announced to nobody.
    /// A lost connection is listened on again after 1, 2, 4 … 30 s. Until the stream is dropped.
    public func wakeups() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let listening = Task { [database, clock] in
            var delay = Duration.seconds(1)
            while !Task.isCancelled {
                let heard = await Self.listen(database, wake: { continuation.yield() })
                if heard { delay = .seconds(1) }
                guard !Task.isCancelled else { break }
                try? await clock.sleep(for: delay)
                delay = min(delay * 2, .seconds(30))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in listening.cancel() }
        return stream
    }

    /// Listens until the connection fails or the task is cancelled; whether it listened at all.
    private static func listen(_ database: PostgresDatabase, wake: @escaping @Sendable () -> Void) async -> Bool {
        let started = ListenStart()
        do {
            try await database.client.withConnection { connection in
                try await connection.listen(on: PostgresChangeRows.channel) { notifications in
                    started.mark()
                    wake()
                    for try await _ in notifications { wake() }
                }
            }
        } catch {
            if !Task.isCancelled {
                let detail = PostgresDatabase.appError(error, .reading).technicalMessage
                database.logger.warning("listening for changes stopped", metadata: ["detail": "\(detail)"])
            }
        }
        return started.value
    }
}

/// Whether a listen got as far as listening (set inside the connection's closure).
private final class ListenStart: Sendable {
    private let started = Mutex(false)

    func mark() { started.withLock { $0 = true } }
    var value: Bool { started.withLock { $0 } }
}
