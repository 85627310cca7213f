import Logging
import PostgresNIO
import SharedKernel

/// Wakes whoever listens when any process has committed a change to the database: every
/// `interval` it reads the change log's newest id (one probe of its key) and wakes them when it
/// moved, so another server's change reaches this one's streams within an interval and a read
/// (100-108 ms measured); this server's own writes wake its hub at once (`ChangePokeMiddleware`).
///
/// Polled, not `LISTEN`/`NOTIFY`: a transaction that notifies takes a lock over the whole
/// database at its commit, one notifying commit at a time. Enrollment pairs from two servers
/// went from 182 to 230/s a server (p99 20 → 16.6 ms) without it, and from 88-110 to 118-124/s
/// with 50 streams open on each (BENCHMARKS.md, "Two servers on one PostgreSQL").
public struct PostgresChangeSignal: Sendable {
    private let database: PostgresDatabase
    private let interval: Duration
    private let clock: any Clock<Duration>

    /// `clock`: what the waits between reads sleep on.
    public init(database: PostgresDatabase, interval: Duration = .milliseconds(100), clock: any Clock<Duration> = ContinuousClock()) {
        self.database = database
        self.interval = interval
        self.clock = clock
    }

    /// One wake-up (coalesced) after the first read, and one after each read that finds a newer
    /// change. Until the stream is dropped.
    public func wakeups() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let polling = Task {
            await poll { continuation.yield() }
            continuation.finish()
        }
        continuation.onTermination = { _ in polling.cancel() }
        return stream
    }

    /// Reads the log's newest id every `interval` until cancelled: `wake` after the first read
    /// and after each read that finds it moved. A read that fails is tried again after 1, 2,
    /// 4 … 30 s, said once in the log.
    func poll(wake: @Sendable () -> Void) async {
        let log = PostgresChangeLog(database: database)
        await Self.poll(
            every: interval, on: clock, logger: database.logger, read: { () async throws(AppError) in try await log.newestChangeID() },
            wake: wake)
    }

    /// `poll`'s loop, over any read of the newest id.
    static func poll(
        every interval: Duration, on clock: any Clock<Duration>, logger: Logger, read: () async throws(AppError) -> Int64,
        wake: @Sendable () -> Void
    ) async {
        var seen: Int64?
        var wait = Duration.zero
        var failed = false
        while (try? await clock.sleep(for: wait)) != nil {
            do throws(AppError) {
                let newest = try await read()
                if newest != seen { wake() }
                seen = newest
                wait = interval
                failed = false
            } catch {
                if !failed, !Task.isCancelled {
                    logger.warning("reading the change log stopped", metadata: ["detail": "\(error.technicalMessage)"])
                }
                wait = failed ? min(wait * 2, .seconds(30)) : .seconds(1)
                failed = true
            }
        }
    }
}
