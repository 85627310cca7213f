import Foundation
import SharedKernel

/// SPEC's limit on password guesses. An attempt is counted *before* its password is checked
/// (reserved, then settled), so however many guesses arrive at once, no more than the limit
/// are ever checked. Two counts, both over a 15-minute window:
/// - per email and client address: 10, so a guesser elsewhere cannot lock the owner out;
/// - per email over every address: 100, so guessing from many addresses is bounded too.
/// The rule is here once; where attempts are kept is a `SignInAttemptLog`: in the process
/// (SQLite, one process) or in PostgreSQL (every server process counts the same attempts).
struct SignInRateLimiter: Sendable {
    typealias Policy = SignInPolicy

    let policy: Policy
    private let log: any SignInAttemptLog
    private let now: @Sendable () -> Date

    init(policy: Policy = Policy(), log: any SignInAttemptLog = InMemorySignInAttempts(), now: @escaping @Sendable () -> Date = Date.init) {
        self.policy = policy
        self.log = log
        self.now = now
    }

    /// Counts an attempt of `email` from `address` before it is checked, or refuses it with
    /// the seconds until the oldest attempt that holds the limit leaves the window.
    func reserve(email: String, address: String) async throws(APIFailure) -> SignInAttempt {
        let now = self.now()
        let key = AccountRules.emailKey(email)
        let reservation: AttemptReservation
        do {
            reservation = try await log.reserve(
                key: key, address: address, at: now, since: now.addingTimeInterval(-policy.window), policy: policy)
        } catch {
            throw APIFailure(error)
        }
        switch reservation {
        case .reserved(let id):
            return SignInAttempt(key: key, address: address, id: id)
        case .refused(let oldest):
            throw APIFailure.rateLimited(
                retryAfter: max(1, Int(oldest.addingTimeInterval(policy.window).timeIntervalSince(now).rounded(.up))))
        }
    }

    /// What the attempt turned out to be: a success forgets this address's failures for the
    /// email; a failure stays counted; an attempt that never checked a password (the server
    /// was busy or its store failed) is taken back.
    func settle(_ attempt: SignInAttempt, _ outcome: SignInOutcome) async {
        switch outcome {
        case .failed: return
        case .succeeded: await log.forget(key: attempt.key, address: attempt.address)
        case .notMade: await log.takeBack(key: attempt.key, id: attempt.id)
        }
    }
}

/// One counted sign-in attempt, to settle once its password was checked.
struct SignInAttempt: Hashable, Sendable {
    let key: String
    let address: String
    let id: Int64
}

enum SignInOutcome: Sendable {
    case succeeded
    case failed
    case notMade
}

/// Attempts kept in this process: an actor, so a reservation is one step.
actor InMemorySignInAttempts: SignInAttemptLog {
    private struct Attempt {
        let id: Int64
        let address: String
        let at: Date
    }

    private var attempts: [String: [Attempt]] = [:]
    private var nextID: Int64 = 1

    /// Attempts for ever new emails must not grow without end: past this many emails, the
    /// ones whose attempts all left the window are forgotten.
    static let pruneAbove = 10_000

    func reserve(key: String, address: String, at date: Date, since: Date, policy: SignInPolicy) -> AttemptReservation {
        let recent = (attempts[key] ?? []).filter { $0.at > since }
        if let oldest = policy.oldestHoldingLimit(recent.map { ($0.address, $0.at) }, address: address) {
            attempts[key] = recent
            return .refused(oldest: oldest)
        }
        let id = nextID
        nextID += 1
        attempts[key] = recent + [Attempt(id: id, address: address, at: date)]
        if attempts.count > Self.pruneAbove {
            attempts = attempts.filter { $0.value.contains { $0.at > since } }
        }
        return .reserved(id: id)
    }

    func forget(key: String, address: String) {
        attempts[key]?.removeAll { $0.address == address }
        if attempts[key]?.isEmpty == true { attempts[key] = nil }
    }

    func takeBack(key: String, id: Int64) {
        attempts[key]?.removeAll { $0.id == id }
        if attempts[key]?.isEmpty == true { attempts[key] = nil }
    }
}
