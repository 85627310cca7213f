import Logging
import SharedKernel
import Synchronization
import TestSupport
import Testing

@testable import PostgresStore

@Suite("PostgreSQL change signal")
struct PostgresChangeSignalTests {
    @Test("a read of the log that fails is tried again after 1, 2, 4 … 30 s; one that succeeds wakes and goes back to the interval")
    func backoff() async {
        let clock = ManualClock()
        // nil: the read fails.
        let outcomes = Mutex<[Int64?]>([nil, nil, nil, nil, nil, nil, nil, 5])
        let wakes = Mutex(0)
        let polling = Task {
            await PostgresChangeSignal.poll(
                every: .milliseconds(100), on: clock, logger: Logger(label: "test"),
                read: { () async throws(AppError) -> Int64 in
                    guard let next = outcomes.withLock({ $0.isEmpty ? 5 : $0.removeFirst() }) else {
                        throw AppError.storage(.reading, detail: "the database is away")
                    }
                    return next
                },
                wake: { wakes.withLock { $0 += 1 } })
        }
        let waits = await clock.runSleeps(9)
        polling.cancel()
        await polling.value

        #expect(waits == [1, 2, 4, 8, 16, 30, 30].map { Duration.seconds($0) } + [.milliseconds(100), .milliseconds(100)])
        // The first good read wakes; the next finds the same id.
        #expect(wakes.withLock { $0 } == 1)
    }
}
