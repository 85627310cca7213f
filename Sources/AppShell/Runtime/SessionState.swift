import Observation
import SharedKernel

/// Who is signed in, as the header shows it.
@Observable
@MainActor
final class SessionState {
    private(set) var user: User?
    private let sessions: any SessionRepository

    init(sessions: any SessionRepository) {
        self.sessions = sessions
    }

    /// The learner changed (e.g. renamed on the Profile tab): the header shows it at once.
    func replace(_ user: User) {
        self.user = user
    }

    /// Reads the signed-in learner; on failure the header just shows no name.
    func load() async throws(AppError) {
        user = try await sessions.currentUser()
    }
}
