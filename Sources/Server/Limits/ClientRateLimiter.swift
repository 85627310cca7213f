import Foundation

/// SPEC: the unauthenticated routes (sign-in, account creation, refresh) are limited per
/// client address: a bucket of `perMinute` requests per route and address (five times that
/// for refresh, which guesses nothing and which every terminal behind one address sends) that
/// refills evenly over a minute. Past it: 429 `too_many_requests` with the seconds until the next one (`rate_limited` is
/// the per-email limit on guesses, which the app words differently).
actor ClientRateLimiter {
    enum Route: String, Sendable {
        case signIn
        case createAccount
        case refresh
    }

    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    let perMinute: Int
    private let now: @Sendable () -> Date
    private var buckets: [String: Bucket] = [:]

    /// Buckets for ever new addresses must not grow without end: past this many, the full
    /// ones (which say nothing a new bucket would not) are forgotten.
    static let pruneAbove = 10_000

    /// `perMinute` 0 turns the limit off.
    init(perMinute: Int, now: @escaping @Sendable () -> Date = Date.init) {
        self.perMinute = perMinute
        self.now = now
    }

    /// Takes one request of `route` from `address`, or says how many seconds until one may come.
    func admit(_ route: Route, from address: String) -> Int? {
        guard perMinute > 0 else { return nil }
        let now = self.now()
        let capacity = Double(route == .refresh ? 5 * perMinute : perMinute)
        let rate = capacity / 60
        let key = "\(route.rawValue) \(address)"
        var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: now)
        bucket.tokens = min(capacity, bucket.tokens + max(0, now.timeIntervalSince(bucket.updated)) * rate)
        bucket.updated = now
        guard bucket.tokens >= 1 else {
            buckets[key] = bucket
            return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
        }
        bucket.tokens -= 1
        buckets[key] = bucket
        if buckets.count > Self.pruneAbove {
            buckets = buckets.filter { $0.value.tokens + max(0, now.timeIntervalSince($0.value.updated)) * rate < capacity }
        }
        return nil
    }
}
