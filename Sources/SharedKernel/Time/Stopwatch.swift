/// The time since it was made, on any clock (a test's manual one or the wall), as a `Duration`:
/// what `any Clock<Duration>` cannot give by itself, its instants being of its own type. A
/// sleep until a moment so counted has its deadline fixed on the start instant, never on a
/// "now" read again later, when a test may have moved the clock on.
public struct Stopwatch: Sendable {
    private let read: @Sendable () -> Duration
    private let sleepUntil: @Sendable (Duration) async throws -> Void

    public init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        read = { start.duration(to: clock.now) }
        sleepUntil = { moment in try await clock.sleep(until: start.advanced(by: moment), tolerance: nil) }
    }

    /// The time since the stopwatch was made.
    public var elapsed: Duration { read() }

    /// Sleeps until `moment` after the start.
    public func sleep(until moment: Duration) async throws {
        try await sleepUntil(moment)
    }
}
