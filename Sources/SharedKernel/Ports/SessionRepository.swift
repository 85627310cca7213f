/// Knows who is signed in on this machine, and signs people in and out.
public protocol SessionRepository: Sendable {
    /// The signed-in learner, or `nil` when nobody is.
    func currentUser() async throws(AppError) -> User?
    /// Checks the password and starts a session; `.invalidCredentials` for a wrong email or
    /// password alike.
    func signIn(email: String, password: String) async throws(AppError) -> User
    /// Creates an account (password 8+ characters, email unused) and signs it in.
    func createAccount(name: String, email: String, password: String) async throws(AppError) -> User
    /// Ends the session; the next start shows the sign-in screen.
    func signOut() async throws(AppError)
}
