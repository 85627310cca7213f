import Foundation

/// SPEC's limit on password guesses, over a window: per email and client address, and per
/// email over every address.
public struct SignInPolicy: Sendable {
    public var perAddress = 10
    public var perEmail = 100
    public var window: TimeInterval = 15 * 60

    public init(perAddress: Int = 10, perEmail: Int = 100, window: TimeInterval = 15 * 60) {
        self.perAddress = perAddress
        self.perEmail = perEmail
        self.window = window
    }

    /// The rule every log applies to an email's attempts in the window (oldest first): the
    /// oldest attempt of a count that is full, or `nil` when a new attempt may be noted.
    public func oldestHoldingLimit(_ attempts: [(address: String, at: Date)], address: String) -> Date? {
        let fromAddress = attempts.filter { $0.address == address }
        if fromAddress.count >= perAddress { return fromAddress[0].at }
        if attempts.count >= perEmail { return attempts[0].at }
        return nil
    }
}

/// Where counted sign-in attempts are kept, by email key and client address: in a server's
/// process, or in a database every server process shares.
public protocol SignInAttemptLog: Sendable {
    /// In one step: forgets `key`'s attempts from before `since`, and when `policy` lets a
    /// new attempt in notes it; otherwise names the oldest attempt of the count that is full.
    func reserve(key: String, address: String, at date: Date, since: Date, policy: SignInPolicy) async throws(AppError)
        -> AttemptReservation
    /// Forgets `key`'s attempts from `address` (it signed in from there).
    func forget(key: String, address: String) async
    /// Forgets one attempt that checked no password.
    func takeBack(key: String, id: Int64) async
}

public enum AttemptReservation: Hashable, Sendable {
    case reserved(id: Int64)
    case refused(oldest: Date)
}
