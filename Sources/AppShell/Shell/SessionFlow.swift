import Observation
import Presentation
import Profile
import SharedKernel
import TerminalUI

/// Who is signed in on this instance, and the screens that follow from it: the sign-in
/// screen while nobody is, the learner's scope while someone is, and the scope of a learner
/// whose session the server ended, kept for them while they sign in again.
@Observable
@MainActor
final class SessionFlow {
    let session = SessionState()
    /// The signed-in learner's features and screens.
    private(set) var scope: LearnerScope?
    /// The sign-in screen, while nobody is signed in.
    private(set) var loginScreen: (any Screen)?
    /// The learner whose session the server ended, kept as they left it while they sign in
    /// again: the same learner comes back to it.
    @ObservationIgnored private var suspendedScope: LearnerScope?
    /// The stored session could not be read for want of the server: read it once it answers.
    @ObservationIgnored private var restorePending = false
    /// The stored session read again once the server answers; cancelled when the flow closes.
    @ObservationIgnored private let tasks = OwnedTasks()
    @ObservationIgnored private let ports: AppPorts
    /// The outcome of every save, whichever screen made it.
    @ObservationIgnored var report: @MainActor (StatusMessage) -> Void = { _ in }
    /// Called after another learner, or nobody, comes to the front.
    @ObservationIgnored var onSwitched: @MainActor () -> Void = {}
    /// How many writes wait for the server (remote mode's replica), for the log-out question.
    @ObservationIgnored var waitingWrites: @MainActor () -> Int = { 0 }
    /// How many saved courses the catalog searches while the server cannot be reached.
    @ObservationIgnored var savedSearch: @MainActor () -> Int? = { nil }
    /// Remote mode's lessons saved for offline, which the profile shows and clears.
    @ObservationIgnored var offline: OfflineShelf?

    @ObservationIgnored private let layout: LayoutSettings

    /// The email the sign-in form starts with (`--profile`'s).
    @ObservationIgnored private let signInEmail: String?

    /// The app's clock, which paces the store's news.
    @ObservationIgnored private let clock: ShellClock

    init(ports: AppPorts, layout: LayoutSettings = LayoutSettings(), clock: ShellClock = ShellClock(), signInEmail: String? = nil) {
        self.clock = clock
        self.signInEmail = signInEmail
        self.ports = ports
        self.layout = layout
    }

    /// Reads the stored session: the learner it names is signed in on this instance; if it
    /// cannot be read, nobody is, and signing in reports the real problem.
    func start() async {
        do {
            if let user = try await ports.sessions.restoreSession() { signedIn(as: user) } else { signedOut() }
        } catch .unreachable(let host) {
            // Remote mode with the server out of reach: the stored session is kept, and read
            // again when the server answers (`serverAnswersAgain`).
            signedOut(notice: "\(AppError.unreachable(host: host).userMessage) — you are signed in again as soon as it answers")
            restorePending = true
        } catch {
            signedOut()
        }
    }

    /// The screen in front: the sign-in screen while nobody is signed in, else the current
    /// tab's; nothing until the stored session is read.
    var frontScreen: (any Screen)? {
        switch session.phase {
        case .unknown: nil
        case .signedOut: loginScreen
        case .signedIn: scope?.coordinator.currentScreen
        }
    }

    /// The server ended the session (remote mode): the sign-in screen says so, and the
    /// learner's screens wait, as they were, for them to sign in again.
    func sessionEnded() {
        guard session.phase == .signedIn, let scope else { return }
        scope.coordinator.currentScreen.disappear()
        scope.stopFollowing()
        suspendedScope = scope
        self.scope = nil
        session.signedOut()
        loginScreen = makeLoginScreen(notice: AppError.sessionEnded.userMessage)
        onSwitched()
    }

    /// The server answers again: the stored session is read if it could not be, else the
    /// screen in front reads its data again, by itself.
    func serverAnswersAgain() {
        guard restorePending, session.phase == .signedOut else {
            frontScreen?.appear()
            return
        }
        restorePending = false
        let sessions = ports.sessions
        tasks.run { [weak self] in
            guard let user = try? await sessions.restoreSession(), let self, self.session.phase == .signedOut else { return }
            self.signedIn(as: user)
        }
    }

    /// `serverAnswersAgain` once `before` has run (remote mode's queued writes sent), in a task
    /// the flow owns: closing the flow cancels it.
    func serverAnswersAgain(after before: @escaping @Sendable () async -> Void) {
        tasks.run { [weak self] in
            await before()
            guard !Task.isCancelled else { return }
            self?.serverAnswersAgain()
        }
    }

    /// Waits until the work the flow started (a stored session read again, the scope's lists
    /// read again) has finished.
    func settle() async {
        await tasks.settle()
        await scope?.settle()
    }

    var isBusy: Bool { tasks.isBusy || scope?.isBusy == true }

    /// Stops everything of every learner: the app is ending.
    func close() {
        tasks.cancelAll()
        scope?.close()
        suspendedScope?.close()
    }

    private func signedIn(as user: User) {
        scope?.close()
        loginScreen = nil
        if let suspended = suspendedScope, suspended.learner == user.id {
            // Back where they were; their lists, and the screen in front as it appears, are
            // read again.
            scope = suspended
            suspended.follow()
            suspended.readAgain()
        } else {
            suspendedScope?.close()
            scope = LearnerScope(
                user: user, ports: ports, session: session, layout: layout, clock: clock,
                report: { [weak self] message in self?.report(message) },
                onLoggedOut: { [weak self] in self?.signedOut() },
                waitingWrites: { [weak self] in self?.waitingWrites() ?? 0 },
                savedSearch: { [weak self] in self?.savedSearch() },
                offline: offline
            )
            scope?.follow()
        }
        suspendedScope = nil
        session.signedIn(user)
        onSwitched()
    }

    /// Closes every screen of the learner, then shows the sign-in screen.
    private func signedOut(notice loginNotice: LocalizedText? = nil) {
        restorePending = false
        scope?.close()
        suspendedScope?.close()
        suspendedScope = nil
        scope = nil
        session.signedOut()
        loginScreen = makeLoginScreen(notice: loginNotice)
        onSwitched()
    }

    private func makeLoginScreen(notice: LocalizedText?) -> any Screen {
        SignInFeature(sessions: ports.sessions, email: signInEmail, server: ports.server).makeLoginScreen(notice: notice) {
            [weak self] user in
            self?.signedIn(as: user)
        }
    }
}
