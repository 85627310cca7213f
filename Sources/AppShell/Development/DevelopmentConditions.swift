import SharedKernel

/// The `--latency` and `--offline` development options: applied before every data call by
/// the instrumented ports, so loading and error states can be seen for real.
public struct DevelopmentConditions: Sendable, Equatable {
    public var latency: Duration
    public var offline: Bool

    public init(latency: Duration = .zero, offline: Bool = false) {
        self.latency = latency
        self.offline = offline
    }

    public var isActive: Bool { latency > .zero || offline }

    /// The same latency, never offline: for signing in and out, which --offline leaves
    /// working so the catalog's error states can be reached, and a learner can always leave.
    var latencyOnly: DevelopmentConditions { DevelopmentConditions(latency: latency) }

    /// Waits the latency on `clock`, then fails if offline.
    func beforeDataCall(on clock: ShellClock) async throws(AppError) {
        if latency > .zero {
            do {
                try await clock.sleep(for: latency)
            } catch {
                throw .cancelled
            }
        }
        if offline { throw .connectivity }
    }
}
