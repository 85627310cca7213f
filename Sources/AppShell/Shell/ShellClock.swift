import Presentation
import SharedKernel

/// The app's one clock (ARCHITECTURE.md, "Time is a dependency"), assembled in `EduGoApp` and
/// moved by tests: timers sleep on it, and a moment on it is the time since the shell began,
/// so moments compare whichever clock it is.
struct ShellClock: Sendable {
    let clock: any Clock<Duration>
    /// Moments count from here; a sleep until one is fixed on its start (`Stopwatch`).
    private let stopwatch: Stopwatch

    init(_ clock: any Clock<Duration> = ContinuousClock()) {
        self.clock = clock
        stopwatch = Stopwatch(clock)
    }

    /// Now, as the time since the shell began.
    var now: Duration { stopwatch.elapsed }

    func sleep(for duration: Duration) async throws {
        try await clock.sleep(for: duration)
    }

    func sleep(until moment: Duration) async throws {
        try await stopwatch.sleep(until: moment)
    }
}

extension ShellClock {
    /// Waits for `condition`, at most `limit` on this clock (nil: as long as it takes);
    /// whether it holds.
    @MainActor
    func wait(upTo limit: Duration?, until condition: @escaping @MainActor () -> Bool) async -> Bool {
        guard let limit else {
            await ObservedCondition.wait(until: condition)
            return true
        }
        // Cancelled at the deadline (or with the caller), the wait ends; the condition says.
        _ = try? await withDeadline(limit, on: clock) { await ObservedCondition.wait(until: condition) }
        return condition()
    }
}
