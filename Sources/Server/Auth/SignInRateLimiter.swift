import Foundation
import PostgresStore

/// SPEC: after 10 failed sign-ins for one email in 15 minutes, that email is refused until the
/// oldest failure leaves the window. The rule is here once; where the failures are kept is a
/// `SignInFailureLog`: in the process (SQLite, one process) or in PostgreSQL (every process
/// counts the same failures).
struct SignInRateLimiter: Sendable {
    let limit: Int
    let window: TimeInterval
    private let log: any SignInFailureLog
    private let now: @Sendable () -> Date

    init(
        limit: Int = 10, window: TimeInterval = 15 * 60, log: any SignInFailureLog = InMemorySignInFailures(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.limit = limit
        self.window = window
        self.log = log
        self.now = now
    }

    /// Seconds until `email` may try again, or `nil` when it may now.
    func retryAfter(for email: String) async -> Int? {
        let now = self.now()
        let recent = await log.failures(of: Self.key(email), since: now.addingTimeInterval(-window))
        guard recent.count >= limit, let oldest = recent.first else { return nil }
        return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
    }

    func recordFailure(for email: String) async {
        let now = self.now()
        await log.record(Self.key(email), at: now, forgettingBefore: now.addingTimeInterval(-window))
    }

    func recordSuccess(for email: String) async {
        await log.clear(Self.key(email))
    }

    /// One email however it is typed (spaces around it, case).
    private static func key(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespaces).lowercased()
    }
}

/// Where failed sign-ins are kept, by folded email.
protocol SignInFailureLog: Sendable {
    /// The failures of `key` after `since`, oldest first.
    func failures(of key: String, since: Date) async -> [Date]
    /// Notes a failure, and forgets this key's failures from before `forgettingBefore`.
    func record(_ key: String, at date: Date, forgettingBefore: Date) async
    /// Forgets a key's failures (it signed in).
    func clear(_ key: String) async
}

/// Failures kept in this process.
actor InMemorySignInFailures: SignInFailureLog {
    private var failures: [String: [Date]] = [:]

    /// Failures for ever new emails must not grow without end: past this many emails, the
    /// ones whose failures all left the window are forgotten.
    static let pruneAbove = 10_000

    func failures(of key: String, since: Date) -> [Date] {
        let recent = (failures[key] ?? []).filter { $0 > since }
        failures[key] = recent.isEmpty ? nil : recent
        return recent
    }

    func record(_ key: String, at date: Date, forgettingBefore cutoff: Date) {
        failures[key] = failures(of: key, since: cutoff) + [date]
        if failures.count > Self.pruneAbove {
            failures = failures.filter { $0.value.contains { $0 > cutoff } }
        }
    }

    func clear(_ key: String) {
        failures[key] = nil
    }
}

/// Failures kept in the PostgreSQL database, shared by every server process. A database that
/// does not answer limits nobody (and the sign-in then fails on its own).
struct PostgresSignInFailures: SignInFailureLog {
    let database: PostgresDatabase

    func failures(of key: String, since: Date) async -> [Date] {
        (try? await database.signInFailures(emailKey: key, since: since)) ?? []
    }

    func record(_ key: String, at date: Date, forgettingBefore cutoff: Date) async {
        try? await database.recordSignInFailure(emailKey: key, at: date, forgetBefore: cutoff)
    }

    func clear(_ key: String) async {
        try? await database.clearSignInFailures(emailKey: key)
    }
}
