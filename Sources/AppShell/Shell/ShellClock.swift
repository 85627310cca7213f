/// The app's one clock (ARCHITECTURE.md, "Time is a dependency"), assembled in `EduGoApp` and
/// moved by tests: timers sleep on it, and a moment on it is the time since the shell began,
/// so moments compare whichever clock it is.
struct ShellClock: Sendable {
    let clock: any Clock<Duration>
    private let elapsed: @Sendable () -> Duration

    init(_ clock: any Clock<Duration> = ContinuousClock()) {
        self.clock = clock
        elapsed = Self.stopwatch(clock)
    }

    private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    /// Now, as the time since the shell began.
    var now: Duration { elapsed() }

    func sleep(for duration: Duration) async throws {
        try await clock.sleep(for: duration)
    }

    func sleep(until moment: Duration) async throws {
        try await clock.sleep(for: moment - now)
    }
}
