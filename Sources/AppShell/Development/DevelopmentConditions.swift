import SharedKernel

/// The `--latency` and `--offline` development options: applied before every data call by
/// the decorators, so loading and error states can be seen for real.
public struct DevelopmentConditions: Sendable, Equatable {
    public var latency: Duration
    public var offline: Bool

    public init(latency: Duration = .zero, offline: Bool = false) {
        self.latency = latency
        self.offline = offline
    }

    public var isActive: Bool { latency > .zero || offline }

    func beforeDataCall() async throws(AppError) {
        if latency > .zero {
            try? await Task.sleep(for: latency)
        }
        if offline { throw .connectivity }
    }
}
