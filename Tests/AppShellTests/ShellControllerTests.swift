import Foundation
@testable import AppShell
import SharedKernel
import Testing
import TestSupport
import TerminalUI

@Suite("Shell: global keys and the frame")
@MainActor
struct ShellControllerTests {
    static let size = Size(width: 80, height: 24)

    @Test("q at a tab's root quits; Ctrl-C quits at once")
    func quit() async throws {
        let (sut, _) = makeSUT()
        try await showLoadedList(sut)

        #expect(sut.handle(.char("q"), terminalSize: Self.size) == .quit)
        #expect(sut.handle(.key(.control("c")), terminalSize: Self.size) == .quit)
    }

    @Test("Enter opens the detail; Esc and q go back to the list with the same row selected")
    func openAndBack() async throws {
        let (sut, coordinator) = makeSUT(courses: [.fixture(id: "a", title: "Alpha"), .fixture(id: "b", title: "Beta"), .fixture(id: "c", title: "Gamma")])
        try await showLoadedList(sut)

        _ = sut.handle(.key(.down), terminalSize: Self.size)
        _ = sut.handle(.key(.down), terminalSize: Self.size)
        _ = sut.handle(.key(.enter), terminalSize: Self.size)
        #expect(coordinator.path == [.courseDetail("c")])

        #expect(sut.handle(.key(.escape), terminalSize: Self.size) == .keepRunning)
        #expect(coordinator.path == [])
        _ = sut.handle(.key(.enter), terminalSize: Self.size)
        #expect(sut.handle(.char("q"), terminalSize: Self.size) == .keepRunning)
        #expect(coordinator.path == [])
        #expect(try await frame(sut).contains("3/3"))
    }

    @Test("number keys and Tab switch tabs", arguments: [
        (InputEvent.char("2"), AppTab.myCourses), (.char("3"), .favourites), (.char("4"), .profile),
        (.key(.tab), .myCourses), (.key(.backTab), .profile),
    ])
    func switchTabs(event: InputEvent, tab: AppTab) async throws {
        let (sut, coordinator) = makeSUT()
        try await showLoadedList(sut)

        _ = sut.handle(event, terminalSize: Self.size)

        #expect(coordinator.tab == tab)
    }

    @Test("the frame has the header with the user's name, the screen and the footer")
    func frameLayout() async throws {
        let (sut, _) = makeSUT(courses: [.fixture(title: "Swift 101")], user: "Demo Learner")

        let lines = try await showLoadedList(sut)

        #expect(lines[0].hasPrefix(" EduGo   1 Catalog"))
        #expect(lines[0].hasSuffix("Demo Learner"))
        #expect(lines.contains { $0.contains("Swift 101") })
        #expect(lines[23] == " ↑↓ move  Enter open  / search  f favourite  r reload  1-4 tabs  ? help  q quit")
    }

    @Test("tab 4 shows the profile; a rename there shows in the header at once")
    func profileTab() async throws {
        let (sut, _) = makeSUT(user: "Demo Learner")
        try await showLoadedList(sut)

        _ = sut.handle(.char("4"), terminalSize: Self.size)
        var text = try await frame(sut)
        for _ in 0..<10_000 where !text.contains("Member since") {
            await Task.yield()
            text = try await frame(sut)
        }
        _ = sut.handle(.char("e"), terminalSize: Self.size)
        _ = sut.handle(.key(.control("u")), terminalSize: Self.size)
        for character in "Ana" { _ = sut.handle(.char(character), terminalSize: Self.size) }
        _ = sut.handle(.key(.enter), terminalSize: Self.size)
        var lines = try await frame(sut).components(separatedBy: "\n")
        for _ in 0..<10_000 where !lines[0].hasSuffix("Ana") {
            await Task.yield()
            lines = try await frame(sut).components(separatedBy: "\n")
        }

        #expect(lines[0].hasSuffix(" Ana"))
        #expect(lines.contains { $0.contains("Name updated") })
    }

    @Test("nobody signed in: only the login screen, no tabs; signing in shows the catalog")
    func signedOut() async throws {
        let (sut, coordinator) = makeSUT(user: nil)
        var text = ""
        for _ in 0..<10_000 where !text.contains("Sign in to EduGo") {
            await Task.yield()
            text = try await frame(sut)
        }

        #expect(text.contains("Sign in to EduGo"))
        #expect(!text.contains("1 Catalog"))
        #expect(sut.handle(.char("2"), terminalSize: Self.size) == .keepRunning)
        #expect(coordinator.tab == .catalog)
        #expect(sut.handle(.char("q"), terminalSize: Self.size) == .keepRunning)

        sut.signedIn(as: .demo)
        let lines = try await showLoadedList(sut)
        #expect(lines[0].contains("1 Catalog"))
        #expect(lines[0].hasSuffix("Demo Learner"))
    }

    @Test("logging out forgets the stack and every screen; Esc and tab keys reach nothing of them")
    func logout() async throws {
        let (sut, coordinator) = makeSUT()
        try await showLoadedList(sut)
        _ = sut.handle(.key(.enter), terminalSize: Self.size)
        #expect(!coordinator.isAtRoot)

        sut.loggedOut()

        #expect(coordinator.isAtRoot)
        for event in [InputEvent.key(.escape), .char("2"), .char("4"), .key(.tab)] {
            _ = sut.handle(event, terminalSize: Self.size)
        }
        let text = try await frame(sut)
        #expect(text.contains("Sign in to EduGo"))
        #expect(!text.contains("Swift 101"))
    }

    @Test("? shows the screen's keys and the global ones over the screen; ? or Esc closes it, and keys meanwhile reach nothing else")
    func helpOverlay() async throws {
        let (sut, coordinator) = makeSUT(courses: [.fixture(id: "a", title: "Alpha"), .fixture(id: "b", title: "Beta")])
        try await showLoadedList(sut)

        _ = sut.handle(.char("?"), terminalSize: Self.size)
        let open = try await frame(sut)
        for event in [InputEvent.key(.down), .key(.enter), .char("2"), .char("f")] {
            #expect(sut.handle(event, terminalSize: Self.size) == .keepRunning)
        }
        let stillOpen = try await frame(sut)
        _ = sut.handle(.key(.escape), terminalSize: Self.size)
        let closedByEsc = try await frame(sut)
        _ = sut.handle(.char("?"), terminalSize: Self.size)
        _ = sut.handle(.char("?"), terminalSize: Self.size)
        let closedByQuestionMark = try await frame(sut)

        for needle in ["Keys", "Catalog", "PgUp PgDn", "search title, instructor, tags", "toggle favourite", "Everywhere", "switch tab", "Shift-Tab", "quit at once", "? or Esc closes"] {
            #expect(open.contains(needle), "the help lacks \(needle)")
        }
        #expect(stillOpen == open)
        #expect(coordinator.tab == .catalog)
        #expect(coordinator.isAtRoot)
        #expect(!closedByEsc.contains("Everywhere"))
        #expect(closedByEsc.contains("1/2"))
        #expect(!closedByQuestionMark.contains("Everywhere"))
    }

    @Test("at 60×16 the help scrolls to its last key and not past it")
    func helpScrolls() async throws {
        let (sut, _) = makeSUT()
        try await showLoadedList(sut)
        let small = Size(width: 60, height: 16)

        _ = sut.handle(.char("?"), terminalSize: small)
        var canvas = TextCanvas(size: small)
        _ = sut.draw(in: &canvas, tick: 0)
        let top = canvas.text
        for _ in 0..<50 { _ = sut.handle(.key(.down), terminalSize: small) }
        let offset = sut.helpOffset
        canvas = TextCanvas(size: small)
        _ = sut.draw(in: &canvas, tick: 0)
        let bottom = canvas.text

        #expect(top.contains("↓ more"))
        #expect(!top.contains("quit at once"))
        #expect(bottom.contains("quit at once"))
        #expect(bottom.contains("↑ more"))
        _ = sut.handle(.key(.down), terminalSize: small)
        #expect(sut.helpOffset == offset)
    }

    @Test("below 60×16 the frame is only the too-small message, and q still quits")
    func tooSmall() async throws {
        let (sut, _) = makeSUT()
        try await showLoadedList(sut)
        var canvas = TextCanvas(size: Size(width: 40, height: 10))

        _ = sut.draw(in: &canvas, tick: 0)

        let shown = canvas.lines.filter { !$0.isEmpty }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(shown.joined(separator: " ") == "Terminal too small: need 60×16, have 40×10")
        #expect(sut.handle(.key(.down), terminalSize: Size(width: 40, height: 10)) == .keepRunning)
        #expect(sut.handle(.char("q"), terminalSize: Size(width: 40, height: 10)) == .quit)
    }

    // MARK: - Helpers

    private func makeSUT(courses: [Course] = [.fixture()], user: String? = "Demo Learner") -> (ShellController, AppCoordinator) {
        let coordinator = AppCoordinator()
        let sessions = SessionRepositoryStub(user: user.map { User(id: UserID(1), name: $0, email: "demo@edugo.dev", memberSince: .now) })
        let session = SessionState(sessions: sessions)
        let ports = AppPorts(
            courses: CourseRepositorySpy.success(courses),
            enrollments: EnrollmentRepositorySpy(courses: courses),
            favourites: FavouritesRepositorySpy(courses: courses),
            profiles: ProfileRepositoryStub(),
            sessions: sessions
        )
        let router = ScreenRouter(coordinator: coordinator, ports: ports)
        let sut = ShellController(coordinator: coordinator, router: router, session: session)
        Task { try? await session.load() }
        return (sut, coordinator)
    }

    /// Shows the catalog and waits until its list (and the user's name) is drawn.
    @discardableResult
    private func showLoadedList(_ sut: ShellController) async throws -> [String] {
        for _ in 0..<10_000 {
            sut.prepareFrame()
            var canvas = TextCanvas(size: Self.size)
            _ = sut.draw(in: &canvas, tick: 0)
            if canvas.text.contains("Title"), !canvas.text.contains("Loading") { 
                await Task.yield()
                var settled = TextCanvas(size: Self.size)
                _ = sut.draw(in: &settled, tick: 0)
                return settled.lines
            }
            await Task.yield()
        }
        Issue.record("the list never loaded")
        return []
    }

    private func frame(_ sut: ShellController) async throws -> String {
        sut.prepareFrame()
        await Task.yield()
        sut.prepareFrame()
        var canvas = TextCanvas(size: Self.size)
        _ = sut.draw(in: &canvas, tick: 0)
        return canvas.text
    }
}

/// Renames without storing anything.
private struct ProfileRepositoryStub: ProfileRepository {
    func updateName(userID: UserID, to name: String) async throws(AppError) -> User {
        User(id: userID, name: name, email: "demo@edugo.dev", memberSince: .now)
    }
}
