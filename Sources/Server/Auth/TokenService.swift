import Crypto
import Foundation
import JWTKit
import SharedKernel

/// What an access token says: who, which sign-in, until when.
struct AccessClaims: JWTPayload {
    var sub: SubjectClaim
    /// The sign-in (refresh token family) the token belongs to, so log out can end it.
    var sid: String
    var iat: IssuedAtClaim
    var exp: ExpirationClaim

    /// Signature only: expiry is checked by `TokenService`, which tells an expired token from a
    /// bad one (401 `token_expired` against `unauthorized`).
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The signed-in learner of one request.
struct Caller: Hashable, Sendable {
    let userID: UserID
    let family: String
}

/// A new session's tokens.
struct IssuedTokens: Hashable, Sendable {
    let accessToken: String
    let refreshToken: String
    let expiresIn: Int
}

/// Issues and checks tokens: short-lived signed JWTs for access, and random refresh tokens
/// that are stored only hashed and rotate on every use.
struct TokenService: Sendable {
    private let keys: JWTKeyCollection
    private let refreshTokens: any RefreshTokenRepository
    let accessTokenTTL: Int
    /// How long a sign-in lasts without being used.
    let refreshTokenTTL: TimeInterval = 30 * 24 * 3600
    private let now: @Sendable () -> Date

    init(
        signingKey: [UInt8], refreshTokens: any RefreshTokenRepository, accessTokenTTL: Int, now: @escaping @Sendable () -> Date = Date.init
    ) async {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: signingKey), digestAlgorithm: .sha256)
        self.keys = keys
        self.refreshTokens = refreshTokens
        self.accessTokenTTL = accessTokenTTL
        self.now = now
    }

    /// A new sign-in for `userID`.
    func startSession(for userID: UserID) async throws -> IssuedTokens {
        let family = Self.randomToken()
        let refresh = Self.randomToken()
        let issued = now()
        try await refreshTokens.issue(
            RefreshTokenRecord(
                hash: Self.hash(refresh), family: family, userID: userID, expiresAt: issued.addingTimeInterval(refreshTokenTTL)),
            now: issued
        )
        return IssuedTokens(
            accessToken: try await accessToken(for: userID, family: family), refreshToken: refresh, expiresIn: accessTokenTTL)
    }

    /// The presented refresh token used up for a new one of the same sign-in; a token used
    /// before ends the whole sign-in.
    func refresh(_ presented: String) async throws -> (UserID, IssuedTokens) {
        let replacement = Self.randomToken()
        let outcome = try await refreshTokens.rotate(
            Self.hash(presented), to: Self.hash(replacement), expiresAt: now().addingTimeInterval(refreshTokenTTL), now: now()
        )
        switch outcome {
        case .rotated(let userID, let family):
            let access = try await accessToken(for: userID, family: family)
            return (userID, IssuedTokens(accessToken: access, refreshToken: replacement, expiresIn: accessTokenTTL))
        case .reused, .rejected:
            throw APIFailure.unauthorized
        }
    }

    /// Ends the caller's sign-in: its refresh token stops working.
    func endSession(_ caller: Caller) async throws {
        try await refreshTokens.revoke(family: caller.family)
    }

    /// The caller named by an `Authorization: Bearer` header, whose sign-in still goes on:
    /// once it ended (log out, a replayed refresh token, the account gone) its access tokens
    /// are refused at once, on every server of the store, not when they expire.
    func caller(authorization: String?) async throws(APIFailure) -> Caller {
        guard let authorization, authorization.count < 4096,
            authorization.lowercased().hasPrefix("bearer ")
        else { throw .unauthorized }
        let token = authorization.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        let claims: AccessClaims
        do { claims = try await keys.verify(token, as: AccessClaims.self) } catch { throw .unauthorized }
        guard let id = Int64(claims.sub.value) else { throw .unauthorized }
        guard claims.exp.value > now() else { throw .tokenExpired }
        let caller = Caller(userID: UserID(id), family: claims.sid)
        try await check(caller)
        return caller
    }

    /// Whether the caller's sign-in still goes on (else 401 `unauthorized`).
    func check(_ caller: Caller) async throws(APIFailure) {
        let live: Bool
        do { live = try await refreshTokens.isLive(family: caller.family, userID: caller.userID, now: now()) } catch {
            throw APIFailure(error)
        }
        guard live else { throw .unauthorized }
    }

    private func accessToken(for userID: UserID, family: String) async throws -> String {
        let issued = now()
        let claims = AccessClaims(
            sub: SubjectClaim(value: String(userID.rawValue)), sid: family,
            iat: IssuedAtClaim(value: issued), exp: ExpirationClaim(value: issued.addingTimeInterval(TimeInterval(accessTokenTTL)))
        )
        return try await keys.sign(claims)
    }

    /// 256 random bits, base64url without padding.
    static func randomToken() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// SHA-256, hex: what the store keeps instead of the token.
    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
