import Foundation

/// What a server keeps of its refresh tokens: only their hashes, each in the family of one
/// sign-in, so a token presented twice can end that whole sign-in.
public protocol RefreshTokenRepository: Sendable {
    /// Stores a new token's hash as the start of a sign-in (`family`), and forgets the tokens
    /// expired by `now`: a used token is kept only as long as replaying it could matter.
    func issue(_ token: RefreshTokenRecord, now: Date) async throws(AppError)
    /// In one transaction: a live `presented` token is used up and `replacement` (same family)
    /// stored; a used one ends its whole family; an unknown, expired or ended one changes nothing.
    func rotate(_ presented: String, to replacement: String, expiresAt: Date, now: Date) async throws(AppError) -> RefreshOutcome
    /// Ends a sign-in: none of the family's tokens works any more. Idempotent.
    func revoke(family: String) async throws(AppError)
    /// Whether `userID`'s sign-in `family` still goes on: a live token of it is stored (not
    /// used, ended or expired by `now`), and the account exists. Access tokens of a sign-in
    /// that ended are refused from the next request, on every server of the store.
    func isLive(family: String, userID: UserID, now: Date) async throws(AppError) -> Bool
}

/// A refresh token as stored: never the token itself.
public struct RefreshTokenRecord: Hashable, Sendable {
    /// SHA-256 of the token, hex.
    public let hash: String
    /// The sign-in the token belongs to; every rotation stays in it.
    public let family: String
    public let userID: UserID
    public let expiresAt: Date

    public init(hash: String, family: String, userID: UserID, expiresAt: Date) {
        self.hash = hash
        self.family = family
        self.userID = userID
        self.expiresAt = expiresAt
    }
}

/// What presenting a refresh token did.
public enum RefreshOutcome: Hashable, Sendable {
    /// The token was live: it is used up and the replacement stored.
    case rotated(userID: UserID, family: String)
    /// The token had been used before: its family is ended (a stolen token was replayed, or
    /// the learner's own copy after the thief's).
    case reused
    /// Unknown, expired or already ended: nothing changed.
    case rejected
}
