import Foundation

/// SPEC: after 10 failed sign-ins for one email in 15 minutes, that email is refused until the
/// oldest failure leaves the window. Kept per server process, by folded email.
actor SignInRateLimiter {
    let limit: Int
    let window: TimeInterval
    private var failures: [String: [Date]] = [:]
    private let now: @Sendable () -> Date

    init(limit: Int = 10, window: TimeInterval = 15 * 60, now: @escaping @Sendable () -> Date = Date.init) {
        self.limit = limit
        self.window = window
        self.now = now
    }

    /// Seconds until `email` may try again, or `nil` when it may now.
    func retryAfter(for email: String) -> Int? {
        let recent = prune(Self.key(email))
        guard recent.count >= limit, let oldest = recent.first else { return nil }
        return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now())).rounded(.up)))
    }

    func recordFailure(for email: String) {
        let key = Self.key(email)
        failures[key] = prune(key) + [now()]
        // Failures for ever new emails must not grow without end: past this many emails, the
        // ones whose failures all left the window are forgotten.
        if failures.count > Self.pruneAbove {
            let cutoff = now().addingTimeInterval(-window)
            failures = failures.filter { $0.value.contains { $0 > cutoff } }
        }
    }

    static let pruneAbove = 10_000

    func recordSuccess(for email: String) {
        failures[Self.key(email)] = nil
    }

    private func prune(_ key: String) -> [Date] {
        let cutoff = now().addingTimeInterval(-window)
        let recent = (failures[key] ?? []).filter { $0 > cutoff }
        failures[key] = recent.isEmpty ? nil : recent
        return recent
    }

    private static func key(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
