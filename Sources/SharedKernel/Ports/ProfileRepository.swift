/// Changes a learner's profile.
public protocol ProfileRepository: Sendable {
    /// Stores a new display name (already validated) and returns the updated learner.
    func updateName(userID: UserID, to name: String) async throws(AppError) -> User
}
