/// Knows who is signed in on this machine.
public protocol SessionRepository: Sendable {
    /// The signed-in learner, or `nil` when nobody is.
    func currentUser() async throws(AppError) -> User?
}
