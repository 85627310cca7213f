import Observation
import SharedKernel

/// Who is signed in on this running app, as the shell draws it: nothing until the stored
/// session is read, then nobody (the sign-in screen) or the learner, with a new name being
/// saved shown in the old one's place. Another instance signing in or out changes nothing
/// here: this is the instance's own.
@Observable
@MainActor
final class SessionState {
    enum Phase: Equatable {
        case unknown
        case signedOut
        case signedIn
    }

    private(set) var phase: Phase = .unknown
    private(set) var user: User?
    private(set) var pendingName: String?

    /// The name the header shows.
    var displayName: String? { pendingName ?? user?.name }

    func signedIn(_ user: User) {
        self.user = user
        pendingName = nil
        phase = .signedIn
    }

    func signedOut() {
        user = nil
        pendingName = nil
        phase = .signedOut
    }

    func nameSaving(_ name: String?) {
        pendingName = name
    }

    /// The learner as the store has them now; ignored after signing out.
    func userChanged(_ user: User) {
        guard phase == .signedIn, self.user?.id == user.id else { return }
        self.user = user
    }
}
