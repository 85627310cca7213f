/// Accounts and the stored session: who was signed in when the app last ran. Who is signed in
/// now belongs to each running app, not to the store, so another instance signing in or out
/// changes nothing for this one.
public protocol SessionRepository: Sendable {
    /// The learner the stored session names, for the next start; `nil` when nobody.
    func restoreSession() async throws(AppError) -> User?
    /// Checks the password and stores the session; `.invalidCredentials` for a wrong email or
    /// password alike.
    func signIn(email: String, password: String) async throws(AppError) -> User
    /// Creates an account by `AccountRules` (`.invalidAccount` names the field, `.emailTaken`)
    /// and signs it in.
    func createAccount(name: String, email: String, password: String) async throws(AppError) -> User
    /// Ends this learner's session: the next start shows the sign-in screen, unless another
    /// learner signed in since.
    func signOut(userID: UserID) async throws(AppError)
}
