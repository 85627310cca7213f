import Foundation
@testable import Profile
import SharedKernel
import Testing
import TestSupport
import TerminalUI

@Suite("Profile view-model")
@MainActor
struct ProfileViewModelTests {
    @Test("starts idle")
    func startsIdle() {
        let (sut, _, _) = makeSUT()

        #expect(sut.state == .idle)
    }

    @Test("shows loading while loading, then loaded with the user and counts")
    func loads() async {
        let gate = Gate()
        let (sut, _, _) = makeSUT(gate: gate)

        let load = Task { await sut.load() }
        for _ in 0..<10_000 where sut.state != .loading { await Task.yield() }
        #expect(sut.state == .loading)
        await gate.open()
        await load.value

        #expect(sut.state.value?.user == .demo)
        #expect(sut.state.value?.enrolledCount == 1)
        #expect(sut.state.value?.favouritesCount == 2)
    }

    @Test("a failure is an error with a message; retry loads")
    func errorAndRetry() async {
        let enrollments = EnrollmentRepositorySpy(failure: .connectivity)
        let (sut, _, _) = makeSUT(enrollments: enrollments)

        await sut.load()
        #expect(sut.state == .error(message: AppError.connectivity.userMessage))
        await enrollments.setFailure(nil)
        await sut.load()

        #expect(sut.state.value?.user == .demo)
    }

    @Test("a second load while loading is ignored")
    func duplicateLoad() async {
        let gate = Gate()
        let sessions = SessionSpy(user: .demo, gate: gate)
        let (sut, _, _) = makeSUT(sessions: sessions)

        let first = Task { await sut.load() }
        for _ in 0..<10_000 where sut.state != .loading { await Task.yield() }
        await sut.load()
        await gate.open()
        await first.value

        #expect(await sessions.calls == 1)
    }

    @Test("a blank name is refused without calling the store")
    func blankRejected() async {
        let (sut, profiles, _) = makeSUT()
        await sut.load()
        sut.beginEditing()
        sut.edit(.control("u"))
        sut.edit(.character(" "))

        await sut.save()

        #expect(await profiles.renames == [])
        #expect(sut.rejection == "Enter a name")
        #expect(sut.isEditing)
    }

    @Test("a name the rules refuse keeps the field open with the reason")
    func rulesRejected() async {
        let (sut, profiles, _) = makeSUT()
        await sut.load()
        sut.beginEditing()
        sut.edit(.character("7"))

        await sut.save()

        #expect(await profiles.renames == [])
        #expect(sut.rejection == "Use letters, spaces, apostrophes, hyphens and dots only")
        #expect(sut.isEditing)
    }

    @Test("saving without a loaded profile fails and writes nothing")
    func updateWithoutUser() async {
        let (sut, profiles, _) = makeSUT()

        sut.beginEditing()
        await sut.save()

        #expect(!sut.isEditing)
        #expect(await profiles.renames == [])
    }

    @Test("a successful save shows the name, says Name updated and tells the shell")
    func saves() async {
        var changed: [User] = []
        let (sut, profiles, _) = makeSUT { changed.append($0) }
        await sut.load()
        sut.beginEditing()
        sut.edit(.control("u"))
        for character in "Zoë 山田" { sut.edit(.character(character)) }

        await sut.save()

        #expect(await profiles.renames == ["Zoë 山田"])
        #expect(sut.state.value?.user.name == "Zoë 山田")
        #expect(sut.status == StatusMessage("Name updated", kind: .success))
        #expect(changed.map(\.name) == ["Zoë 山田"])
        #expect(!sut.isEditing)
    }

    @Test("a failed save restores the previous name and says why")
    func failedSaveRestores() async {
        let (sut, profiles, _) = makeSUT()
        await sut.load()
        let before = sut.state
        await profiles.fail(with: .connectivity)
        sut.beginEditing()
        sut.edit(.character("x"))

        await sut.save()

        #expect(sut.state == before)
        #expect(!sut.isEditing)
        #expect(sut.status == StatusMessage(AppError.connectivity.userMessage, kind: .error))
    }

    @Test("log out clears state whether or not the store call succeeds", arguments: [false, true])
    func logOut(storeFails: Bool) async {
        let sessions = SessionSpy(user: .demo)
        if storeFails { await sessions.failSignOut() }
        var loggedOut = 0
        let (sut, _, _) = makeSUT(sessions: sessions, onLoggedOut: { loggedOut += 1 })
        await sut.load()
        sut.requestLogout()
        #expect(sut.isConfirmingLogout)

        await sut.logOut()

        #expect(await sessions.signOuts == 1)
        #expect(sut.state == .idle)
        #expect(loggedOut == 1)
        #expect(!sut.isConfirmingLogout)
    }

    @Test("l asks Log out? (y/n); n keeps the learner signed in")
    func logoutQuestion() async {
        let sessions = SessionSpy(user: .demo)
        let (sut, _, _) = makeSUT(sessions: sessions)
        let screen = ProfileScreen(viewModel: sut)
        await sut.load()

        _ = screen.handle(.char("l"))
        #expect(screen.statusMessage == StatusMessage("Log out? (y/n)"))
        #expect(screen.isCapturingText)
        _ = screen.handle(.char("n"))

        #expect(!sut.isConfirmingLogout)
        #expect(await sessions.signOuts == 0)
    }

    @Test("the screen shows the facts, and the field with its reason while editing")
    func screen() async {
        let (sut, _, _) = makeSUT()
        let screen = ProfileScreen(viewModel: sut)
        await sut.load()

        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))
        #expect(Array(canvas.lines[1...9]) == [
            "  Profile",
            "",
            "  Name              Demo Learner",
            "  Email             demo@edugo.dev",
            "  Role              Learner",
            "  Member since      14 Nov 2023",
            "  Enrolled courses  1",
            "  Favourites        2",
            "",
        ])

        _ = screen.handle(.char("e"))
        _ = screen.handle(.char("9"))
        await sut.save()
        var editing = TextCanvas(size: Size(width: 80, height: 24))
        screen.draw(in: &editing, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))
        #expect(editing.lines[3].hasPrefix("  Name              Demo Learner9"))
        #expect(editing.lines[4] == "                    Use letters, spaces, apostrophes, hyphens and dots only")
        #expect(editing.cursor?.x == 33)
        #expect(screen.isCapturingText)
    }

    // MARK: - Helpers

    private func makeSUT(
        sessions: SessionSpy = SessionSpy(user: .demo),
        enrollments: EnrollmentRepositorySpy = EnrollmentRepositorySpy(courses: [.fixture()], enrollments: [.fixture()]),
        gate: Gate? = nil,
        onNameChanged: @escaping @MainActor (User) -> Void = { _ in },
        onLoggedOut: @escaping @MainActor () -> Void = {}
    ) -> (ProfileViewModel, ProfileRepositorySpy, EnrollmentRepositorySpy) {
        let profiles = ProfileRepositorySpy()
        let favourites = FavouritesRepositorySpy(courses: [], favourites: ["a", "b"])
        let sessionPort: any SessionRepository = gate.map { SessionSpy(user: .demo, gate: $0) } ?? sessions
        let sut = ProfileViewModel(
            loadProfile: LoadProfileUseCase(session: sessionPort, enrollments: enrollments, favourites: favourites),
            updateName: UpdateProfileNameUseCase(profiles: profiles),
            signOut: SignOutUseCase(sessions: sessionPort),
            onNameChanged: onNameChanged,
            onLoggedOut: onLoggedOut
        )
        return (sut, profiles, enrollments)
    }
}

/// Counts session reads; with a gate, reads wait until it opens.
actor SessionSpy: SessionRepository {
    let user: User?
    let gate: Gate?
    private(set) var calls = 0

    init(user: User?, gate: Gate? = nil) {
        self.user = user
        self.gate = gate
    }

    func currentUser() async throws(AppError) -> User? {
        calls += 1
        await gate?.wait()
        return user
    }

    func signIn(email: String, password: String) async throws(AppError) -> User { throw .invalidCredentials }
    func createAccount(name: String, email: String, password: String) async throws(AppError) -> User { throw .emailTaken }
    private(set) var signOuts = 0
    var signOutFails = false

    func failSignOut() {
        signOutFails = true
    }

    func signOut() async throws(AppError) {
        signOuts += 1
        if signOutFails { throw .connectivity }
    }
}

/// Records renames; can be told to fail.
actor ProfileRepositorySpy: ProfileRepository {
    private(set) var renames: [String] = []
    private var failure: AppError?

    func fail(with error: AppError) {
        failure = error
    }

    func updateName(userID: UserID, to name: String) async throws(AppError) -> User {
        if let failure { throw failure }
        renames.append(name)
        return User(id: userID, name: name, email: User.demo.email, memberSince: User.demo.memberSince)
    }
}
