import Observation
import SharedKernel
import TerminalUI

/// The Profile tab: the learner's summary, and the name being edited in place.
@Observable
@MainActor
final class ProfileViewModel {
    private(set) var state: ViewState<ProfileSummary> = .idle
    /// The name field while editing; `nil` otherwise.
    private(set) var nameField: TextField?
    /// Why the typed name was refused, shown under the field while it stays open.
    private(set) var rejection: String?
    private(set) var status: StatusMessage?
    private(set) var isSaving = false
    /// `l` was pressed; waiting for `y` or `n`.
    private(set) var isConfirmingLogout = false

    private let loadProfile: LoadProfileUseCase
    private let updateName: UpdateProfileNameUseCase
    private let signOut: SignOutUseCase
    private let onNameChanged: @MainActor (User) -> Void
    private let onLoggedOut: @MainActor () -> Void

    init(
        loadProfile: LoadProfileUseCase,
        updateName: UpdateProfileNameUseCase,
        signOut: SignOutUseCase,
        onNameChanged: @escaping @MainActor (User) -> Void,
        onLoggedOut: @escaping @MainActor () -> Void
    ) {
        self.loadProfile = loadProfile
        self.updateName = updateName
        self.signOut = signOut
        self.onNameChanged = onNameChanged
        self.onLoggedOut = onLoggedOut
    }

    /// `l`: asks `Log out? (y/n)`.
    func requestLogout() {
        status = nil
        isConfirmingLogout = true
    }

    func cancelLogout() {
        isConfirmingLogout = false
    }

    /// `y`: ends the session and forgets everything shown, whether or not the store call
    /// succeeds, so nothing of this learner stays on screen.
    func logOut() async {
        isConfirmingLogout = false
        try? await signOut.execute()
        state = .idle
        nameField = nil
        rejection = nil
        status = nil
        onLoggedOut()
    }

    var isEditing: Bool { nameField != nil }

    /// Loads the profile; ignored while a load is in flight.
    func load() async {
        guard !state.isLoading else { return }
        if state.value == nil { state = .loading }
        do {
            state = .loaded(try await loadProfile.execute())
        } catch {
            state = .error(message: error.userMessage)
        }
    }

    /// `e`: opens the name field with the current name.
    func beginEditing() {
        guard let summary = state.value else { return }
        status = nil
        rejection = nil
        nameField = TextField(text: summary.user.name)
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

    /// `Enter`: saves. A blank name is refused here without asking the store; a name the
    /// rules refuse keeps the field open with the reason; a failed save restores the
    /// previous name and says why.
    func save() async {
        guard let field = nameField, !isSaving else { return }
        guard case .loaded(let previous) = state else {
            status = StatusMessage("The profile is not loaded yet", kind: .error)
            return
        }
        guard !field.text.allSatisfy(\.isWhitespace) else {
            rejection = ProfileNameRejection.empty.message
            return
        }
        isSaving = true
        defer { isSaving = false }
        do {
            let user = try await updateName.execute(userID: previous.user.id, name: field.text)
            state = .loaded(ProfileSummary(user: user, enrolledCount: previous.enrolledCount, favouritesCount: previous.favouritesCount))
            nameField = nil
            status = StatusMessage("Name updated", kind: .success)
            onNameChanged(user)
        } catch .invalidName(let reason) {
            rejection = reason.message
        } catch {
            state = .loaded(previous)
            nameField = nil
            status = StatusMessage(error.userMessage, kind: .error)
        }
    }

    func clearStatus() {
        if status != nil { status = nil }
    }
}
