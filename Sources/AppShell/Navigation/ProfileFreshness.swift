import Presentation
import SharedKernel

/// Keeps the signed-in learner as the store has them when they are changed elsewhere (a
/// rename in another terminal): read afresh, except while a rename of this terminal is being
/// saved, after which it is read, so the store's order decides which name shows.
@MainActor
final class ProfileFreshness {
    private let learner: UserID
    private let profiles: any ProfileRepository
    private let session: SessionState
    private let tasks: OwnedTasks
    /// A reading was asked for while a rename was being saved.
    private var owed = false

    init(learner: UserID, profiles: any ProfileRepository, session: SessionState, tasks: OwnedTasks) {
        self.learner = learner
        self.profiles = profiles
        self.session = session
        self.tasks = tasks
    }

    /// The store changed the learner's profile: read it again (now, or after the rename
    /// being saved).
    func storeChanged() {
        guard session.pendingName == nil else {
            owed = true
            return
        }
        let (profiles, learner, session) = (self.profiles, self.learner, self.session)
        tasks.run { [weak self] in
            guard let user = try? await profiles.user(id: learner) else { return }
            guard session.pendingName == nil else {
                self?.owed = true
                return
            }
            session.userChanged(user)
        }
    }

    /// A rename of this terminal is being saved (`name`), or no longer (`nil`).
    func nameSaving(_ name: String?) {
        session.nameSaving(name)
        guard name == nil, owed else { return }
        owed = false
        storeChanged()
    }
}
