/// Learner accounts, with no notion of who is signed in where: what a server needs to sign in
/// many learners at once. `SessionRepository` adds the one stored session of a machine on top.
public protocol AccountRepository: Sendable {
    /// The learner with this email and password; `.invalidCredentials` for an unknown email or
    /// a wrong password alike, at the same cost, so neither answer nor timing tells which.
    func authenticate(email: String, password: String) async throws(AppError) -> User
    /// Creates a learner account by `AccountRules` (`.invalidAccount` names the field,
    /// `.emailTaken`); nobody is signed in by it.
    func register(name: String, email: String, password: String) async throws(AppError) -> User
}
