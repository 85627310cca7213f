import Courses
import Favourites
import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import AppShell

@Suite("Session flow: the server ends a session, answers again; a learner's lists read again")
@MainActor
final class SessionFlowTests {
    /// What `makeSUT` made: each must be gone once the test is.
    private let leaks = LeakTracker()

    deinit {
        #expect(leaks.alive == [], "kept alive after the test")
    }

    @Test("the server ending the session shows the sign-in screen with why; the same learner signing in is back where they were")
    func sessionEnded() async {
        let (sut, _) = await makeSignedIn()
        sut.enqueue([.char("3")])
        await sut.settle()

        sut.flow.sessionEnded()
        #expect(sut.session.phase == .signedOut)
        #expect(frame(sut).contains(AppError.sessionEnded.userMessage.english))
        sut.enqueue(Self.signInKeys)
        await sut.settle()

        #expect(sut.session.user == .demo)
        #expect(sut.coordinator?.tab == .favourites, "back where they were")
    }

    @Test("while the session has ended, what the server holds now is read again when the learner signs back in")
    func sessionEndedReadsAgain() async {
        let (sut, store) = await makeSignedIn()
        sut.enqueue([.char("4")])
        await sut.settle()
        #expect(frame(sut).contains(Self.profileLine("Enrolled courses", "0")))

        sut.flow.sessionEnded()
        await store.addEnrollment(.fixture(courseID: "git"))
        sut.enqueue(Self.signInKeys)
        await sut.settle()

        #expect(frame(sut).contains(Self.profileLine("Enrolled courses", "1")))
    }

    @Test("a stored session the server could not read is read once it answers again, and the learner is signed in")
    func serverAnswersAgain() async {
        let store = InMemoryStore(courses: ShellControllerTests.courses, signedIn: User.demo.id)
        await store.setFailure(.unreachable(host: "h:1"), only: { $0 == .restoreSession })
        let sut = makeSUT(store)
        await sut.start()
        #expect(sut.session.phase == .signedOut)
        #expect(frame(sut).contains("Cannot reach h:1 — you are signed in again"))

        await store.setFailure(nil)
        sut.flow.serverAnswersAgain()
        await sut.settle()

        #expect(sut.session.user == .demo)
        #expect(frame(sut).contains("Docker Essentials"))
    }

    @Test("the server answering again with someone signed in has the screen in front read again")
    func serverAnswersAgainRefreshes() async {
        let (sut, store) = await makeSignedIn()
        sut.enqueue([.char("2")])
        await sut.settle()
        #expect(frame(sut).contains(MyCoursesTexts.empty))

        await store.addEnrollment(.fixture(courseID: "git"))
        sut.flow.serverAnswersAgain()
        await sut.settle()

        #expect(frame(sut).contains("Git Beyond the Basics"))
    }

    @Test("a scope's lists read again, awaited by whoever asked; lists never read stay unread")
    func readAgain() async {
        let store = InMemoryStore(courses: ShellControllerTests.courses, signedIn: User.demo.id)
        let scope = makeScope(store)
        await scope.readAgain().value
        #expect(scope.courses.enrolledCount == nil && scope.favourites.count == nil)
        #expect(await store.messages.isEmpty, "nothing read")
        await scope.courses.prepare()
        await scope.favourites.prepare()
        #expect(scope.courses.enrolledCount == 0)
        #expect(scope.favourites.count == 0)

        await store.addEnrollment(.fixture(courseID: "git"))
        try? await store.setFavourite(true, userID: User.demo.id, courseID: "docker")
        await scope.readAgain().value

        #expect(scope.courses.enrolledCount == 1)
        #expect(scope.favourites.count == 1)
    }

    @Test("a closed scope's reading is cancelled with it, and nothing of it is left running")
    func closeCancelsReadAgain() async {
        let store = InMemoryStore(courses: ShellControllerTests.courses, signedIn: User.demo.id)
        let scope = makeScope(store)
        // Lists never read are not read again: these are loaded, as a screen would have.
        await scope.courses.prepare()
        await scope.favourites.prepare()
        let gate = Gate()
        await store.setGate(gate)

        let reading = scope.readAgain()
        await gate.waitForArrivals(2)
        scope.close()

        #expect(reading.isCancelled)
        await gate.open()
        await scope.settle()
    }

    // MARK: - Helpers

    static let signInKeys =
        ShellControllerTests.keys("demo@edugo.dev") + [.key(.tab)] + ShellControllerTests.keys("edugo-demo") + [.key(.enter)]

    enum MyCoursesTexts {
        static let empty = "You are not enrolled in any course yet"
    }

    /// A line of the profile as drawn: the label in its column, then the value.
    static func profileLine(_ label: String, _ value: String) -> String {
        label.padding(toLength: 18, withPad: " ", startingAt: 0) + value
    }

    private func makeSUT(_ store: InMemoryStore) -> ShellController {
        let sut = ShellController(ports: ShellControllerTests.ports(store), clock: ShellClock(ManualClock()))
        sut.terminalSize = ShellControllerTests.size
        leaks.track(sut)
        leaks.track(sut.flow)
        return sut
    }

    private func makeSignedIn() async -> (ShellController, InMemoryStore) {
        let store = InMemoryStore(courses: ShellControllerTests.courses, signedIn: User.demo.id)
        let sut = makeSUT(store)
        await sut.start()
        await sut.settle()
        return (sut, store)
    }

    private func makeScope(_ store: InMemoryStore) -> LearnerScope {
        let scope = LearnerScope(
            user: .demo, ports: ShellControllerTests.ports(store), session: SessionState(), report: { _ in }, onLoggedOut: {})
        leaks.track(scope)
        leaks.track(scope.coordinator)
        return scope
    }

    private func frame(_ sut: ShellController) -> String {
        sut.syncVisibleScreen()
        var canvas = TextCanvas(size: ShellControllerTests.size)
        _ = sut.draw(in: &canvas, tick: 0)
        return canvas.text
    }
}
