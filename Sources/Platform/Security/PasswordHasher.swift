import Crypto
import Dispatch
import Foundation
import SharedKernel
import _CryptoExtras

/// Salted, slow password hashes: PBKDF2-HMAC-SHA256 with a per-user random salt. The cost is
/// stored inside each hash, so it can be raised later without breaking old accounts.
public struct PasswordHasher: PasswordHashing {
    /// OWASP's 2023 recommendation for PBKDF2-HMAC-SHA256.
    public static let defaultRounds = 600_000

    public let rounds: Int

    /// `rounds` below the default are for tests only.
    public init(rounds: Int = PasswordHasher.defaultRounds) {
        self.rounds = max(1, rounds)
    }

    /// `pbkdf2-sha256$<rounds>$<salt base64>$<hash base64>`.
    public func hash(_ password: String) throws -> String {
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = UInt8.random(in: .min ... .max, using: &generator) }
        let derived = try Self.derive(password: password, salt: salt, rounds: rounds)
        return "pbkdf2-sha256$\(rounds)$\(Data(salt).base64EncodedString())$\(Data(derived).base64EncodedString())"
    }

    /// A well-formed hash that no password produces, for an unknown email: checking against
    /// it costs what checking a real one does, so timing does not tell which part was wrong.
    public var decoyHash: String {
        "pbkdf2-sha256$\(rounds)$\(Data(count: 16).base64EncodedString())$\(Data(count: 32).base64EncodedString())"
    }

    /// True when `password` produces `stored`; compares in constant time.
    public func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$").map(String.init)
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let storedRounds = Int(parts[1]), storedRounds > 0,
            let salt = Data(base64Encoded: parts[2]), let expected = Data(base64Encoded: parts[3]),
            let derived = try? Self.derive(password: password, salt: [UInt8](salt), rounds: storedRounds)
        else { return false }
        return Self.constantTimeEqual(derived, [UInt8](expected))
    }

    /// `hash(_:)` on a thread of its own: a hash takes a few hundred milliseconds of CPU, which
    /// must not hold one of the few threads that run Swift tasks or a server's event loops.
    public func hashPassword(_ password: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try hash(password) })
            }
        }
    }

    /// `verify(_:against:)` on a thread of its own, for the same reason.
    public func verifyPassword(_ password: String, against stored: String) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: verify(password, against: stored))
            }
        }
    }

    private static func derive(password: String, salt: [UInt8], rounds: Int) throws -> [UInt8] {
        let key = try KDF.Insecure.PBKDF2.deriveKey(
            from: Array(password.utf8), salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: rounds
        )
        return key.withUnsafeBytes { Array($0) }
    }

    private static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
