import Observation
import Presentation
import SharedKernel

/// The Profile tab: the learner (as the shell holds them), their counts, the name being
/// edited in place, and the log-out question.
@Observable
@MainActor
final class ProfileViewModel {
    /// The name field while editing; `nil` otherwise.
    private(set) var nameField: TextField?
    /// Why the typed name was refused, shown under the field while it stays open.
    private(set) var rejection: LocalizedText?
    private(set) var isSaving = false
    /// What `y` or `n` answers now: `l` asked to log out, `c` to clear what is saved offline.
    enum Question {
        case logOut, clearSaved
    }

    private(set) var asking: Question?
    private(set) var countsLoaded = false
    /// The streak and the cards due, read with the counts.
    private(set) var habit: LearningHabit?
    /// What is saved for offline (remote mode), read with the counts; nil before, or when it
    /// could not be read.
    private(set) var saved: SavedOffline?
    @ObservationIgnored let tasks = OwnedTasks()
    /// Counts renames; a read of the learner started before one is stale.
    @ObservationIgnored private var renames = 0

    let learner: ProfileLearner
    private let profiles: any ProfileRepository
    private let sessions: any SessionRepository

    init(
        learner: ProfileLearner, profiles: any ProfileRepository, sessions: any SessionRepository,
        learningChanges: Notices<Void> = Notices()
    ) {
        self.learner = learner
        self.profiles = profiles
        self.sessions = sessions
        learningChanges.listen(self) { [weak self] in
            guard let self, self.countsLoaded else { return }
            self.tasks.run { [weak self] in await self?.readHabit() }
        }
    }

    /// Reads the streak and the cards due again (an answer or a review, here or elsewhere).
    func readHabit() async {
        guard let habit = await learner.habit() else { return }
        self.habit = habit
    }

    var user: User { learner.user() }
    /// The name as shown: the one being saved, else the confirmed one.
    var name: String { learner.pendingName() ?? user.name }
    var isEditing: Bool { nameField != nil }

    /// Reads the learner again (another instance may have renamed them) and the counts.
    /// An answer that a rename overtook is dropped: it may hold the old name.
    func refresh() async {
        let started = renames
        async let habit = learner.habit()
        async let saved = learner.offline?.saved()
        await learner.prepareCounts()
        self.habit = await habit
        self.saved = await saved
        countsLoaded = true
        if let fresh = try? await profiles.user(id: user.id), started == renames, !isSaving {
            learner.onUserChanged(fresh)
        }
    }

    /// `e`: opens the name field with the current name.
    func beginEditing() {
        rejection = nil
        nameField = TextField(text: name)
    }

    func edit(_ key: Key) {
        guard nameField?.handle(key) == true else { return }
        rejection = nil
    }

    /// `Esc`: closes the field; the name stays as it was.
    func cancelEditing() {
        nameField = nil
        rejection = nil
    }

    /// `Enter`: a name the rules refuse keeps the field open with the reason. Otherwise the
    /// new name shows at once (here and in the header) while it is saved, before this
    /// returns; a failed save puts the previous name back and says why.
    func save() {
        guard let field = nameField, !isSaving else { return }
        let valid: String
        switch ProfileName.validate(field.text) {
        case .failure(let reason):
            rejection = reason.message
            return
        case .success(let name):
            valid = name
        }
        nameField = nil
        rejection = nil
        guard valid != user.name else { return }
        renames += 1
        isSaving = true
        learner.onNameSaving(valid)
        let (learner, profiles, id) = (self.learner, self.profiles, user.id)
        let save = Task { @MainActor [weak self] in
            do throws(AppError) {
                let renamed = try await profiles.updateName(userID: id, to: valid)
                learner.onUserChanged(renamed)
                learner.report(.success("Name updated"))
            } catch {
                learner.report(.error(error.userMessage))
            }
            self?.isSaving = false
            learner.onNameSaving(nil)
        }
        tasks.run { await save.value }
    }

    /// `l` or `c`: asks its question, `y` or `n`.
    func ask(_ question: Question) {
        asking = question
    }

    /// `y` or `n` to the question asked.
    func answer(yes: Bool) async {
        guard let question = asking else { return }
        asking = nil
        guard yes else { return }
        switch question {
        case .logOut: await logOut()
        case .clearSaved: await clearSaved()
        }
    }

    /// Forgets the saved lessons, then reads what is left and says how many went.
    private func clearSaved() async {
        guard let offline = learner.offline else { return }
        guard let cleared = await offline.clear() else {
            learner.report(.error("The saved lessons could not be cleared"))
            return
        }
        saved = await offline.saved()
        guard cleared > 0 else {
            learner.report(StatusMessage("Nothing to clear: the lessons left have answered questions, kept for review offline"))
            return
        }
        learner.report(.success("\(plural: cleared) saved lessons cleared — saved again at the next sign-in or enrollment"))
    }

    /// Ends the session. It ends here whether or not the store could be told: a learner can
    /// always sign out.
    private func logOut() async {
        try? await sessions.signOut(userID: user.id)
        learner.onLoggedOut()
    }

}
