import Foundation
import PostgresStore

/// SPEC: after 10 failed sign-ins for one email in 15 minutes, that email is refused until the
/// oldest failure leaves the window.
protocol SignInLimiting: Sendable {
    /// Seconds until `email` may try again, or `nil` when it may now.
    func retryAfter(for email: String) async -> Int?
    func recordFailure(for email: String) async
    func recordSuccess(for email: String) async
}

/// The limit kept in one server process, by folded email (the embedded store: one process).
actor SignInRateLimiter: SignInLimiting {
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

    static func key(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespaces).lowercased()
    }
}

/// The limit kept in the PostgreSQL database, so every server process counts the same
/// failures. A database that does not answer limits nobody (and the sign-in then fails on
/// its own).
struct SharedSignInLimiter: SignInLimiting {
    let database: PostgresDatabase
    let limit: Int
    let window: TimeInterval
    private let now: @Sendable () -> Date

    init(database: PostgresDatabase, limit: Int = 10, window: TimeInterval = 15 * 60, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.limit = limit
        self.window = window
        self.now = now
    }

    func retryAfter(for email: String) async -> Int? {
        let now = self.now()
        guard let recent = try? await database.signInFailures(emailKey: SignInRateLimiter.key(email), since: now.addingTimeInterval(-window)),
              recent.count >= limit, let oldest = recent.first
        else { return nil }
        return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
    }

    func recordFailure(for email: String) async {
        let now = self.now()
        try? await database.recordSignInFailure(emailKey: SignInRateLimiter.key(email), at: now, forgetBefore: now.addingTimeInterval(-window))
    }

    func recordSuccess(for email: String) async {
        try? await database.clearSignInFailures(emailKey: SignInRateLimiter.key(email))
    }
}
