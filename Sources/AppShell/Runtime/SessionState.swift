import Observation
import SharedKernel

/// Who is signed in, as the shell draws it: nothing until known, then the login screen or
/// the tabs with the learner's name.
@Observable
@MainActor
final class SessionState {
    enum Phase: Equatable {
        case unknown
        case signedOut
        case signedIn(User)
    }

    private(set) var phase: Phase = .unknown
    private let sessions: any SessionRepository

    init(sessions: any SessionRepository) {
        self.sessions = sessions
    }

    var user: User? {
        if case .signedIn(let user) = phase { return user }
        return nil
    }

    /// Reads the stored session. If it cannot be read, nobody is signed in: the login screen
    /// shows, and signing in reports the real problem.
    func load() async throws(AppError) {
        do {
            phase = try await sessions.currentUser().map(Phase.signedIn) ?? .signedOut
        } catch {
            phase = .signedOut
            throw error
        }
    }

    func signedIn(_ user: User) {
        phase = .signedIn(user)
    }

    func signedOut() {
        phase = .signedOut
    }
}
