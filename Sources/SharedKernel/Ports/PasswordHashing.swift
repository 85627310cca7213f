/// Salted, slow password hashing, handed to whatever checks passwords (the account use cases
/// of every store). Both calls take a few hundred milliseconds of CPU, off the caller's thread.
public protocol PasswordHashing: Sendable {
    func hashPassword(_ password: String) async throws -> String
    func verifyPassword(_ password: String, against stored: String) async -> Bool
    /// A hash of no password, verified against for an unknown email so it costs as much.
    var decoyHash: String { get }
}
