/// The app's one clock (ARCHITECTURE.md, "Time is a dependency"), assembled in `EduGoApp` and
/// moved by tests: timers sleep on it, and a moment on it is the time since the shell began,
/// so moments compare whichever clock it is.
struct ShellClock: Sendable {
    let clock: any Clock<Duration>
    private let elapsed: @Sendable () -> Duration
    private let sleepUntil: @Sendable (Duration) async throws -> Void

    init(_ clock: any Clock<Duration> = ContinuousClock()) {
        self.clock = clock
        (elapsed, sleepUntil) = Self.moments(clock)
    }

    /// Reading the time since now, and sleeping until a moment so counted, on one instant of
    /// `clock`: a sleep's deadline is that instant and the moment, never "now" read again
    /// after a hop off the caller's actor, when a test may have moved the clock on.
    private static func moments<C: Clock<Duration>>(_ clock: C) -> (
        @Sendable () -> Duration, @Sendable (Duration) async throws -> Void
    ) {
        let start = clock.now
        return ({ start.duration(to: clock.now) }, { moment in try await clock.sleep(until: start.advanced(by: moment), tolerance: nil) })
    }

    /// Now, as the time since the shell began.
    var now: Duration { elapsed() }

    func sleep(for duration: Duration) async throws {
        try await clock.sleep(for: duration)
    }

    func sleep(until moment: Duration) async throws {
        try await sleepUntil(moment)
    }
}
