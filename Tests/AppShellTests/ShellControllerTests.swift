import Foundation
import Logging
import Presentation
import SharedKernel
import Synchronization
import TerminalUI
import TestSupport
import Testing

@testable import AppShell

@Suite("Shell: one input queue, the frame and the global keys")
@MainActor
final class ShellControllerTests {
    /// What `makeSUT` made: each must be gone once the test is.
    private let leaks = LeakTracker()

    deinit {
        #expect(leaks.alive == [], "kept alive after the test")
    }

    static let size = Size(width: 80, height: 24)
    static let courses: [Course] = [
        .fixture(id: "agile", title: "Agile and Scrum in Real Teams", instructor: "Daniel Okafor"),
        .fixture(id: "docker", title: "Docker Essentials", instructor: "İlker Yılmaz", tags: ["containers"]),
        .fixture(id: "git", title: "Git Beyond the Basics"),
        .fixture(id: "swift", title: "Swift Fundamentals"),
    ]

    // MARK: - The queue

    @Test("/docker Enter f typed in one burst while the search is slow favourites Docker Essentials")
    func searchBurstFavourites() async {
        let (sut, store) = await makeSignedIn()
        let gate = Gate()
        await store.setGate(gate)

        sut.enqueue(Self.keys("/docker") + [.key(.enter), .char("f")])
        await gate.waitForArrivals(1)
        await gate.open()
        await sut.settle()

        #expect(await store.storedFavourites(of: User.demo.id) == ["docker"])
    }

    @Test("with a limit on waiting (remote mode), a key the screen cannot take in time is dropped and the learner told")
    func keyWaitLimit() async {
        let clock = ManualClock()
        let (sut, store) = await makeSignedIn(clock: clock)
        sut.keyWaitLimit = .milliseconds(50)
        let gate = Gate()
        await store.setGate(gate)

        sut.enqueue(Self.keys("/docker") + [.key(.enter), .char("f")])
        await gate.waitForArrivals(1)
        await clock.waitForSleeper()
        clock.advance(by: .milliseconds(50))
        await sut.drain()
        #expect(frame(sut).contains(ShellController.droppedKeyMessage.english))
        await gate.open()
        await sut.settle()
        #expect(await store.storedFavourites(of: User.demo.id).isEmpty, "the dropped f did nothing")
    }

    @Test("/docker Enter Enter in one burst opens Docker Essentials")
    func searchBurstOpens() async {
        let (sut, store) = await makeSignedIn()
        let gate = Gate()
        await store.setGate(gate)

        sut.enqueue(Self.keys("/docker") + [.key(.enter), .key(.enter)])
        await gate.waitForArrivals(1)
        await gate.open()
        await sut.settle()

        #expect(sut.coordinator?.destinations == [.courseDetail("docker")])
    }

    @Test("keys typed while a screen loads wait for it: 2 u in one burst asks about the first course of My courses")
    func keysWaitForTheScreen() async {
        let (sut, store) = await makeSignedIn()
        await store.addEnrollment(.fixture(courseID: "git"))
        let gate = Gate()
        await store.setGate(gate)

        sut.enqueue([.char("2"), .char("u")])
        await gate.waitForArrivals(1)
        #expect(sut.frontScreen?.statusMessage == nil)
        await gate.open()
        await sut.settle()

        #expect(sut.frontScreen?.statusMessage?.text == "Unenroll from Git Beyond the Basics? (y/n)")
    }

    @Test("keys typed before the stored session is read wait for it")
    func keysBeforeTheSession() async {
        let store = InMemoryStore(courses: Self.courses, signedIn: User.demo.id)
        let gate = Gate()
        await store.setGate(gate)
        let sut = ShellController(ports: Self.ports(store))
        let start = Task { await sut.start() }

        sut.enqueue([.char("3")])
        await gate.waitForArrivals(1)
        await gate.open()
        await start.value
        await sut.settle()

        #expect(sut.coordinator?.tab == .favourites)
    }

    @Test("Ctrl-C is never queued: it quits at once, even behind keys that wait")
    func controlCJumpsTheQueue() async {
        let (sut, store) = await makeSignedIn()
        let gate = Gate()
        await store.setGate(gate)
        var quits = 0
        sut.onQuit = { quits += 1 }

        sut.enqueue([.char("2"), .char("u")])
        await gate.waitForArrivals(1)
        sut.enqueue([.key(.control("c"))])

        #expect(quits == 1)
        await gate.open()
        await sut.settle()
    }

    // MARK: - Global keys

    @Test("q at a tab's root quits; Esc and q go back from a course to the same row")
    func quitAndBack() async {
        let (sut, _) = await makeSignedIn()
        var quits = 0
        sut.onQuit = { quits += 1 }

        sut.enqueue([.key(.down), .key(.down), .key(.enter)])
        await sut.settle()
        #expect(sut.coordinator?.destinations == [.courseDetail("git")])
        sut.enqueue([.key(.escape), .key(.enter), .char("q")])
        await sut.settle()
        #expect(sut.coordinator?.destinations == [])
        #expect(frame(sut).contains("3/4"))
        #expect(quits == 0)
        sut.enqueue([.char("q")])
        await sut.settle()
        #expect(quits == 1)
    }

    @Test(
        "number keys, Tab and a click on a tab switch tabs",
        arguments: [
            (InputEvent.char("2"), AppTab.myCourses), (.char("3"), .favourites), (.char("4"), .profile), (.char("5"), .review),
            (.key(.tab), .myCourses), (.key(.backTab), .review), (.mouse(.click(x: 30, y: 0)), .favourites),
        ])
    func switchTabs(event: InputEvent, tab: AppTab) async {
        let (sut, _) = await makeSignedIn()

        sut.enqueue([event])
        await sut.settle()

        #expect(sut.coordinator?.tab == tab)
    }

    // MARK: - The frame

    @Test("the frame: header with the learner's name, the screen, the footer drawn from the screen's declarations")
    func frameLayout() async {
        let (sut, _) = await makeSignedIn()

        let lines = frame(sut).components(separatedBy: "\n")

        #expect(
            lines[0].hasPrefix("  1 Catalog  2 My courses  3 Favourites  4 Profile  5 Review"),
            "five tabs at 80 columns: no room for the brand")
        #expect(lines[0].hasSuffix("Demo Learner"))
        #expect(lines.contains { $0.contains("Docker Essentials") })
        #expect(lines[23] == " ↑↓ move  Enter open  / search  f favourite  r reload  1-5 tabs  q quit  ? help")
    }

    @Test("a status message never hides every key: the help key stays, and an error starts with ✗")
    func statusKeepsKeys() async {
        let (sut, store) = await makeSignedIn()
        await store.setFailure(.storage(.saving, detail: "disk"), only: { $0.isWrite })

        sut.enqueue([.char("f")])
        await sut.settle()
        let footer = frame(sut).components(separatedBy: "\n")[23]

        #expect(footer.hasPrefix(" ✗ Something went wrong while saving your data."))
        #expect(footer.hasSuffix("? help"))
    }

    @Test("while a field holds the keys, a status message still leaves its way out: Esc clear")
    func statusKeepsTheWayOut() async {
        let (sut, store) = await makeSignedIn()
        await store.setFailure(.storage(.saving, detail: "disk"), only: { $0.isWrite })

        sut.enqueue([.char("f"), .char("/")])
        await sut.settle()
        let footer = frame(sut).components(separatedBy: "\n")[23]

        #expect(footer.hasPrefix(" ✗ Something went wrong while saving your data."))
        #expect(footer.hasSuffix("Esc clear"))
        #expect(!footer.contains("? help"), "? would be typed into the field")
    }

    @Test("the outcome of a save shows whichever screen is in front: f 2 says so on My courses")
    func noticeFollowsTheLearner() async {
        let (sut, store) = await makeSignedIn()
        let gate = Gate()
        await store.setGate(gate)

        sut.enqueue([.char("f"), .char("2")])
        await gate.waitForArrivals(1)
        await gate.open()
        await sut.settle()

        #expect(sut.coordinator?.tab == .myCourses)
        #expect(frame(sut).components(separatedBy: "\n")[23].hasPrefix(" Added Agile and Scrum in Real Teams to favourites"))
    }

    @Test("keys typed while the terminal is too small wait until it grows; q still quits")
    func keysWaitWhileTooSmall() async {
        let (sut, _) = await makeSignedIn()
        var quits = 0
        sut.onQuit = { quits += 1 }
        sut.terminalSize = Size(width: 40, height: 10)

        sut.enqueue([.char("2")])
        sut.terminalSize = Self.size
        await sut.settle()

        #expect(sut.coordinator?.tab == .myCourses)
        sut.terminalSize = Size(width: 40, height: 10)
        sut.enqueue([.char("q")])
        await sut.settle()
        #expect(quits == 1)
    }

    @Test("a success or error message goes after 5 seconds; a question stays")
    func statusLifetime() async {
        let clock = ManualClock()
        let (sut, _) = await makeSignedIn(clock: clock)

        sut.enqueue([.char("f")])
        await sut.settle()
        let shown = sut.clock.now
        #expect(frame(sut).contains("Added Agile and Scrum in Real Teams to favourites"))
        #expect(sut.statusExpiry == shown + .seconds(5))
        clock.advance(by: .seconds(5))
        #expect(!frame(sut).contains("Added Agile"))
        #expect(sut.statusExpiry == nil)
    }

    @Test("e on a course the learner is in already says so, and asks the store nothing")
    func enrollTwice() async {
        let (sut, store) = await makeSignedIn()

        sut.enqueue([.key(.enter), .char("e"), .char("y")])
        await sut.settle()
        let writes = await store.writes.count
        sut.enqueue([.char("e")])
        await sut.settle()

        #expect(frame(sut).contains("✗ You are already enrolled in Agile and Scrum in Real Teams"))
        #expect(await store.writes.count == writes)
    }

    @Test("a message belongs to the moment it was shown: a question cancelled does not bring back the one before it")
    func cancelledQuestionBringsNothingBack() async {
        let clock = ManualClock()
        let (sut, _) = await makeSignedIn(clock: clock)

        sut.enqueue([.key(.enter)])
        await sut.settle()
        sut.enqueue([.char("e"), .char("y")])
        await sut.settle()
        let enrolled = frame(sut)
        clock.advance(by: .seconds(1))
        sut.enqueue([.char("u")])
        await sut.settle()
        let asked = frame(sut)
        sut.enqueue([.char("n")])
        await sut.settle()

        #expect(enrolled.contains("Enrolled in Agile and Scrum in Real Teams"))
        #expect(asked.contains("Unenroll from Agile and Scrum in Real Teams? (y/n)"))
        #expect(!frame(sut).contains("Enrolled in Agile"))
        #expect(sut.statusExpiry == nil)
    }

    @Test(
        "a declared key that cannot act now says why, and does nothing else; one that acts, or an undeclared key, says nothing",
        arguments: [
            ([InputEvent.key(.enter)], InputEvent.char("u"), "✗ You are not enrolled in Agile and Scrum in Real Teams"),
            ([.key(.enter)], .char(" "), "✗ Enroll in Agile and Scrum in Real Teams to mark its lessons done"),
            ([.key(.enter)], .char("p"), "✗ Agile and Scrum in Real Teams has no prerequisite"),
            ([.key(.enter)], .char("r"), nil),
            ([.char("2")], .char("u"), "✗ No course selected"),
            ([.char("2")], .key(.enter), "✗ No course selected"),
            ([.char("3")], .char("f"), "✗ No course selected"),
            ([.key(.enter)], .char("x"), nil),
            ([.key(.enter)], .char("e"), nil),
            ([], .char("z"), nil),
        ] as [([InputEvent], InputEvent, String?)])
    func unavailableKeySaysWhy(before: [InputEvent], key: InputEvent, message: String?) async {
        let (sut, store) = await makeSignedIn()
        sut.enqueue(before)
        await sut.settle()
        let destinations = sut.coordinator?.destinations

        sut.enqueue([key])
        await sut.settle()

        let footer = frame(sut).components(separatedBy: "\n")[23]
        if let message {
            #expect(footer.hasPrefix(" \(message)"))
            #expect(await store.writes == [])
            #expect(sut.coordinator?.destinations == destinations, "nothing else happened")
        } else {
            #expect(!footer.contains("✗"))
        }
    }

    @Test("Esc on the catalog with no filter kept is the shell's, not a refusal: back from a course, and nothing at the root")
    func dormantKeyGoesOn() async {
        let (sut, _) = await makeSignedIn()

        sut.enqueue([.key(.enter), .key(.escape), .key(.escape)])
        await sut.settle()

        #expect(sut.coordinator?.destinations == [])
        #expect(!frame(sut).contains("✗"))
    }

    @Test("the same words posted again are a new message: after a question cancelled, and after the first went")
    func samePostShowsAgain() async {
        let clock = ManualClock()
        let (sut, _) = await makeSignedIn(clock: clock)
        let refusal = "✗ You are already enrolled in Agile and Scrum in Real Teams"
        sut.enqueue([.key(.enter), .char("e"), .char("y")])
        await sut.settle()

        // A frame after each key, as the runtime draws them.
        for key in "eune" {
            sut.enqueue([.char(key)])
            await sut.settle()
            _ = frame(sut)
        }
        let afterQuestion = frame(sut)
        clock.advance(by: .seconds(6))
        let gone = frame(sut)
        sut.enqueue([.char("e")])
        await sut.settle()

        #expect(afterQuestion.contains(refusal))
        #expect(!gone.contains(refusal))
        #expect(frame(sut).contains(refusal))
    }

    @Test("e on Profile while the name is saved says why over Saving…, which comes back when the message goes")
    func refusalOverProgress() async {
        let clock = ManualClock()
        let (sut, store) = await makeSignedIn(clock: clock)
        let gate = Gate()
        sut.enqueue([.char("4"), .char("e"), .key(.control("u"))] + Self.keys("Ana"))
        await sut.settle()
        await store.setGate(gate)
        sut.enqueue([.key(.enter)])
        await gate.waitForArrivals(1)

        sut.enqueue([.char("e")])
        await sut.drain()
        let refused = frame(sut)
        clock.advance(by: .seconds(5))
        let saving = frame(sut)
        await gate.open()
        await sut.settle()

        #expect(refused.components(separatedBy: "\n")[23].hasPrefix(" ✗ Your name is being saved"))
        #expect(saving.components(separatedBy: "\n")[23].hasPrefix(" Saving…"))
        #expect(frame(sut).contains("Name updated"))
    }

    @Test("a completed course left keeps its dependant unlocked: no `locked` in the catalog, and e enrolls in it")
    func completedThenLeftKeepsDependantOpen() async {
        let (sut, store) = await makeSignedIn(courses: [
            .fixture(id: "base", title: "Base Camp", lessonCount: 1),
            .fixture(id: "next", title: "Next Steps", prerequisiteID: "base"),
        ])
        await store.addEnrollment(.fixture(courseID: "base", status: .completed, lessonsDone: [1], completedAt: Date()))
        sut.enqueue([.char("2"), .char("1")])
        await sut.settle()

        sut.enqueue([.key(.enter), .char("u"), .char("y"), .key(.escape)])
        await sut.settle()
        let catalog = frame(sut)
        sut.enqueue([.key(.down), .key(.enter), .char("e"), .char("y")])
        await sut.settle()

        #expect(await store.storedEnrollment(User.demo.id, "base")?.status == .dropped)
        #expect(catalog.contains("Next Steps"))
        #expect(!catalog.contains("locked"))
        #expect(await store.storedEnrollment(User.demo.id, "next")?.status == .active)
    }

    @Test("why a key did nothing goes once another key acts; another notice stays")
    func refusalGoesWhenAKeyActs() async {
        let (sut, _) = await makeSignedIn()
        sut.enqueue([.key(.enter), .char("u")])
        await sut.settle()
        #expect(frame(sut).components(separatedBy: "\n")[23].contains("✗ You are not enrolled"))

        sut.enqueue([.key(.down)])
        await sut.settle()
        #expect(!frame(sut).contains("✗ You are not enrolled"), "↓ acted: the refusal went")
    }

    @Test("ESC and a digit read at once, on a screen that does not take digits: the two keys (the search closed, then tab 3)")
    func escapeAndDigitAtOnce() async {
        let (sut, _) = await makeSignedIn()
        sut.enqueue([.char("/"), .char("x")])
        await sut.settle()
        #expect(frame(sut).contains("/ x"))

        sut.enqueue([.key(.alt("3"))])
        await sut.settle()
        #expect(sut.coordinator?.tab == .favourites)
        sut.enqueue([.char("1")])
        await sut.settle()
        #expect(!frame(sut).contains("/ x"), "the ESC closed the search")
    }

    @Test("? shows the screen's keys, what the marks mean and the global keys; keys meanwhile only scroll or close it")
    func helpOverlay() async {
        let (sut, _) = await makeSignedIn()

        sut.enqueue([.char("?")])
        await sut.settle()
        let shown = frame(sut)
        sut.enqueue([.char("G")])
        await sut.settle()
        let end = frame(sut)
        sut.enqueue([.char("2"), .key(.escape)])
        await sut.settle()

        #expect(shown.contains("Catalog"))
        #expect(shown.contains("mark or unmark as a favourite ★"))
        #expect(shown.contains("Marks"))
        #expect(end.contains("cat:word"), "the search and filters section, at the end")
        #expect(end.contains("is:open"))
        #expect(end.contains("Everywhere"))
        #expect(sut.help.offset == nil)
        #expect(sut.coordinator?.tab == .catalog)
    }

    @Test("nobody signed in: only the sign-in screen; signing in shows the catalog of that learner")
    func signInAndOut() async {
        let store = InMemoryStore(courses: Self.courses)
        let sut = ShellController(ports: Self.ports(store))
        await sut.start()

        #expect(frame(sut).contains("Sign in to EduGo"))
        sut.enqueue(Self.keys("demo@edugo.dev") + [.key(.tab)] + Self.keys("edugo-demo") + [.key(.enter)])
        await sut.settle()
        #expect(sut.session.user == .demo)
        #expect(frame(sut).contains("Docker Essentials"))

        sut.enqueue([.char("4"), .char("l"), .char("y")])
        await sut.settle()
        #expect(sut.session.phase == .signedOut)
        #expect(frame(sut).contains("Sign in to EduGo"))
        #expect(await store.sessionUser == nil)
    }

    @Test("another instance signing someone else in changes nothing here: this one acts as its own learner")
    func learnerBelongsToTheInstance() async throws {
        let (sut, store) = await makeSignedIn()
        let other = try await store.createAccount(name: "Other Learner", email: "other@example.com", password: "password-1")

        sut.enqueue([.char("f")])
        await sut.settle()

        #expect(await store.sessionUser == other.id)
        #expect(await store.storedFavourites(of: User.demo.id) == ["agile"])
        #expect(await store.storedFavourites(of: other.id) == [])
    }

    @Test("below 60×16 the frame is only the too-small message, and q still quits")
    func tooSmall() async {
        let (sut, _) = await makeSignedIn()
        var quits = 0
        sut.onQuit = { quits += 1 }
        sut.terminalSize = Size(width: 40, height: 10)

        var canvas = TextCanvas(size: Size(width: 40, height: 10))
        _ = sut.draw(in: &canvas, tick: 0)
        sut.enqueue([.char("q")])
        await sut.settle()

        #expect(
            canvas.lines.filter { !$0.isEmpty }.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                == "Terminal too small: need 60×16, have 40×10")
        #expect(quits == 1)
    }

    @Test("tui --help lists every screen's keys and the marks, from the same declarations")
    func manual() {
        let text = EduGoApp.keysManual

        for heading in [
            "EVERYWHERE", "CATALOG (TAB 1)", "COURSE PAGE", "MY COURSES (TAB 2)", "FAVOURITES (TAB 3)", "PROFILE (TAB 4)", "SIGN-IN SCREEN",
            "MARKS",
        ] {
            #expect(text.contains(heading), "\(heading)")
        }
        #expect(text.contains("Space"))
        #expect(text.contains("open the prerequisite course"))
    }

    // MARK: - Helpers

    nonisolated static func keys(_ text: String) -> [InputEvent] {
        text.map { .char($0) }
    }

    nonisolated static func ports(_ store: InMemoryStore) -> AppPorts {
        AppPorts(courses: store, enrollments: store, favourites: store, profiles: store, sessions: store, learning: store)
    }

    /// The shell with the demo learner signed in and the catalog loaded.
    private func makeSignedIn(clock: ManualClock = ManualClock(), courses: [Course] = ShellControllerTests.courses) async -> (
        ShellController, InMemoryStore
    ) {
        let store = InMemoryStore(courses: courses, signedIn: User.demo.id)
        let sut = ShellController(ports: Self.ports(store), clock: ShellClock(clock))
        leaks.track(sut)
        sut.terminalSize = Self.size
        await sut.start()
        await sut.settle()
        return (sut, store)
    }

    private func frame(_ sut: ShellController) -> String {
        sut.syncVisibleScreen()
        var canvas = TextCanvas(size: Self.size)
        _ = sut.draw(in: &canvas, tick: 0)
        return canvas.text
    }
}

@Suite("Instrumented ports: development conditions and the error log")
struct InstrumentedPortsTests {
    @Test("--offline fails every catalog call as a connectivity error without touching the store, and logs it")
    func offline() async {
        let store = InMemoryStore(courses: [.fixture()])
        let log = LogRecorder()
        let ports = ShellControllerTests.ports(store).instrumented(conditions: DevelopmentConditions(offline: true), logger: log.logger)

        await #expect(throws: AppError.connectivity) { try await ports.courses.page(matching: "", at: .first, limit: 10) }
        await #expect(throws: AppError.connectivity) { try await ports.enrollments.enrolledCourses(userID: User.demo.id) }
        #expect(await store.messages == [])
        #expect(log.lines.contains { $0.contains("catalog page failed") && $0.contains("connectivity") })
    }

    @Test("--offline leaves signing in and out working, so a learner can always leave")
    func offlineSessions() async throws {
        let store = InMemoryStore()
        let ports = ShellControllerTests.ports(store).instrumented(
            conditions: DevelopmentConditions(offline: true), logger: LogRecorder().logger)

        let user = try await ports.sessions.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        try await ports.sessions.signOut(userID: user.id)

        #expect(await store.sessionUser == nil)
    }

    @Test("a store failure is logged with its technical cause")
    func logsFailures() async {
        let store = InMemoryStore(courses: [.fixture()])
        await store.setFailure(.storage(.saving, detail: "database is locked"))
        let log = LogRecorder()
        let ports = ShellControllerTests.ports(store).instrumented(conditions: DevelopmentConditions(), logger: log.logger)

        await #expect(throws: AppError.self) { try await ports.favourites.setFavourite(true, userID: User.demo.id, courseID: "swift-101") }

        #expect(log.lines.contains { $0.contains("favourite swift-101 failed") && $0.contains("database is locked") })
    }

    @Test("--latency waits on the app's clock before a data call reaches the store")
    func latencyOnTheClock() async throws {
        let store = InMemoryStore(courses: [.fixture()])
        let clock = ManualClock()
        let ports = ShellControllerTests.ports(store)
            .instrumented(conditions: DevelopmentConditions(latency: .seconds(2)), logger: LogRecorder().logger, clock: ShellClock(clock))

        let call = Task { try await ports.enrollments.enrolledCourses(userID: User.demo.id) }
        await clock.waitForSleeper()
        #expect(await store.messages == [], "nothing reaches the store before the latency")
        clock.advance(by: .seconds(2))
        _ = try await call.value

        #expect(await store.messages == [.enrolledCourses(User.demo.id)])
    }

    @Test("no options means no decoration")
    func inactive() {
        #expect(!DevelopmentConditions().isActive)
        #expect(DevelopmentConditions(offline: true).isActive)
        #expect(DevelopmentConditions(latency: .milliseconds(1)).isActive)
    }
}
