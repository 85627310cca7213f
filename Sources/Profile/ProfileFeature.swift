import Presentation
import SharedKernel
import TerminalUI

/// The signed-in learner as the shell holds them, and what the profile tells it. The shell
/// owns who is signed in; the profile shows it and changes it through these.
public struct ProfileLearner: Sendable {
    /// The learner as last confirmed.
    public var user: @MainActor () -> User
    /// A new name being saved, shown in its place meanwhile.
    public var pendingName: @MainActor () -> String?
    /// Loads what `counts` reads, once.
    public var prepareCounts: @MainActor () async -> Void
    /// How many courses the learner is enrolled in, and how many favourites they keep;
    /// `nil` for a count that could not be read.
    public var counts: @MainActor () -> (enrolled: Int?, favourites: Int?)
    /// A name is being saved (`nil`: no longer).
    public var onNameSaving: @MainActor (String?) -> Void
    /// The learner as the store has them now (renamed, or read again).
    public var onUserChanged: @MainActor (User) -> Void
    /// The session has ended.
    public var onLoggedOut: @MainActor () -> Void
    /// Where the outcome of a save is told (the shell's footer, whichever screen is in front).
    public var report: @MainActor (StatusMessage) -> Void
    /// The learner's streak and cards due today; `nil` when they could not be read.
    public var habit: @MainActor () async -> LearningHabit?
    /// How many of the learner's writes wait for the server (remote mode's replica): logging
    /// out says so.
    public var waitingWrites: @MainActor () -> Int
    /// Remote mode's lessons saved for offline; nil in local mode.
    public var offline: OfflineShelf?

    public init(
        user: @escaping @MainActor () -> User,
        pendingName: @escaping @MainActor () -> String?,
        prepareCounts: @escaping @MainActor () async -> Void,
        counts: @escaping @MainActor () -> (enrolled: Int?, favourites: Int?),
        onNameSaving: @escaping @MainActor (String?) -> Void,
        onUserChanged: @escaping @MainActor (User) -> Void,
        onLoggedOut: @escaping @MainActor () -> Void,
        report: @escaping @MainActor (StatusMessage) -> Void,
        habit: @escaping @MainActor () async -> LearningHabit? = { nil },
        waitingWrites: @escaping @MainActor () -> Int = { 0 },
        offline: OfflineShelf? = nil
    ) {
        self.offline = offline
        self.habit = habit
        self.waitingWrites = waitingWrites
        self.user = user
        self.pendingName = pendingName
        self.prepareCounts = prepareCounts
        self.counts = counts
        self.onNameSaving = onNameSaving
        self.onUserChanged = onUserChanged
        self.onLoggedOut = onLoggedOut
        self.report = report
    }
}

/// What remote mode saved on this terminal for offline: the courses and lessons kept, and
/// their size.
public struct SavedOffline: Hashable, Sendable {
    public var courses: Int
    public var lessons: Int
    public var bytes: Int

    public init(courses: Int, lessons: Int, bytes: Int) {
        self.courses = courses
        self.lessons = lessons
        self.bytes = bytes
    }
}

/// Remote mode's lessons saved for offline, as the profile shows and clears them.
public struct OfflineShelf: Sendable {
    /// What is saved now; nil when it could not be read.
    public var saved: @Sendable () async -> SavedOffline?
    /// Forgets the saved lessons (those with an answered question stay, for review offline);
    /// how many were forgotten, nil when they could not be.
    public var clear: @Sendable () async -> Int?

    public init(saved: @escaping @Sendable () async -> SavedOffline?, clear: @escaping @Sendable () async -> Int?) {
        self.saved = saved
        self.clear = clear
    }
}

/// The Profile tab of one signed-in learner: the feature's one entry point.
@MainActor
public struct ProfileFeature {
    private let learner: ProfileLearner
    private let profiles: any ProfileRepository
    private let sessions: any SessionRepository
    private let learningChanges = Notices<Void>()

    public init(learner: ProfileLearner, profiles: any ProfileRepository, sessions: any SessionRepository) {
        self.learner = learner
        self.profiles = profiles
        self.sessions = sessions
    }

    /// Tab 4's root.
    public func makeProfileScreen() -> any Screen {
        ProfileScreen(
            viewModel: ProfileViewModel(learner: learner, profiles: profiles, sessions: sessions, learningChanges: learningChanges))
    }

    /// The learner answered or reviewed (here or elsewhere): the streak and the cards due are
    /// read again where they show.
    public func learningChanged() {
        learningChanges.post(())
    }

    /// Every key of tab 4, for `tui --help`.
    public nonisolated static var keys: [KeyDeclaration] { ProfileScreen.declaredKeys }
}

/// Signing in and creating an account: the feature's entry point while nobody is signed in.
@MainActor
public struct SignInFeature {
    private let sessions: any SessionRepository
    private let email: String?
    private let server: String?

    /// `email`: what the form's email starts with (a profile's), the password then focused.
    /// `server`: the server (`host:port`) signed in to, in remote mode; the form names it.
    public init(sessions: any SessionRepository, email: String? = nil, server: String? = nil) {
        self.sessions = sessions
        self.email = email
        self.server = server
    }

    /// The sign-in screen (Ctrl-N switches to creating an account). `notice` is said above
    /// the form (why the learner is asked to sign in). `onSignedIn` gets the learner.
    public func makeLoginScreen(notice: LocalizedText? = nil, onSignedIn: @escaping @MainActor (User) -> Void) -> any Screen {
        LoginScreen(
            viewModel: LoginViewModel(sessions: sessions, notice: notice, email: email, onSignedIn: onSignedIn), server: server)
    }

    /// Every key of the sign-in screen, for `tui --help`.
    public nonisolated static var keys: [KeyDeclaration] { LoginScreen.declaredKeys }
}
