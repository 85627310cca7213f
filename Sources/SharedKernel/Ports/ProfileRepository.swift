/// A learner's profile.
public protocol ProfileRepository: Sendable {
    /// The learner as stored now; `.notSignedIn` when the account is gone.
    func user(id: UserID) async throws(AppError) -> User
    /// Stores a new display name (already validated) and returns the updated learner.
    func updateName(userID: UserID, to name: String) async throws(AppError) -> User
}
