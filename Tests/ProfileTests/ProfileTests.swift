import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import Profile

/// The shell's side of the profile: who is signed in, as it holds them.
@MainActor
final class ShellSide {
    var user: User = .demo
    var pendingName: String?
    var loggedOut = 0
    var savingNames: [String?] = []
    var reported: [StatusMessage] = []
    var counts: (Int?, Int?) = (3, 2)
    var waitingWrites = 0
    /// Remote mode's saved lessons (nil: local mode, no shelf).
    var shelf: Shelf?

    var learner: ProfileLearner {
        ProfileLearner(
            user: { [self] in user },
            pendingName: { [self] in pendingName },
            prepareCounts: {},
            counts: { [self] in counts },
            onNameSaving: { [self] name in
                pendingName = name
                savingNames.append(name)
            },
            onUserChanged: { [self] user in self.user = user },
            onLoggedOut: { [self] in loggedOut += 1 },
            report: { [self] message in reported.append(message) },
            habit: { LearningHabit(streakDays: 3, dueCount: 5, activeToday: false) },
            waitingWrites: { [self] in waitingWrites },
            offline: shelf.map { shelf in
                OfflineShelf(saved: { await shelf.saved() }, clear: { await shelf.clear() })
            }
        )
    }
}

/// Lessons saved for offline, as a replica would count and clear them.
actor Shelf {
    var kept = SavedOffline(courses: 3, lessons: 41, bytes: 247_600)
    /// How many lessons stay after a clear (answered ones).
    var keeps = 2
    private(set) var clears = 0

    func clear() -> Int? {
        clears += 1
        let gone = kept.lessons - keeps
        kept = SavedOffline(courses: 1, lessons: keeps, bytes: 3_100)
        return gone
    }

    func saved() -> SavedOffline? { kept }
}

@Suite("Profile tab")
@MainActor
final class ProfileTests {
    /// What `makeSUT` made: each must be gone once the test is.
    private let leaks = LeakTracker()

    deinit {
        #expect(leaks.alive == [], "kept alive after the test")
    }

    @Test("the learner's facts and counts")
    func facts() async {
        let (sut, _, _) = await makeSUT()

        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        sut.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))

        #expect(
            Array(canvas.lines[1...11]) == [
                "  Profile",
                "",
                "  Name              Demo Learner",
                "  Email             demo@edugo.dev",
                "  Role              Learner",
                "  Member since      14 Nov 2023",
                "  Enrolled courses  3",
                "  Favourites        2",
                "  Streak            3 days in a row",
                "  To review         5 due today (tab 5)",
                "",
            ])
    }

    @Test("a saved name shows at once, in the header too, while it is saved; then Name updated")
    func rename() async {
        let gate = Gate()
        let (sut, shell, store) = await makeSUT()
        await store.setGate(gate)

        _ = await sut.handle(.char("e"))
        _ = await sut.handle(.key(.control("u")))
        for character in "Zoë 山田" { _ = await sut.handle(.char(character)) }
        _ = await sut.handle(.key(.enter))
        await gate.waitForArrivals(1)

        #expect(shell.pendingName == "Zoë 山田")
        #expect(sut.statusMessage == StatusMessage("Saving…"))
        await gate.open()
        await sut.settle()
        #expect(shell.user.name == "Zoë 山田")
        #expect(shell.pendingName == nil)
        #expect(shell.reported == [.success("Name updated")])
        #expect(sut.statusMessage == nil)
    }

    @Test("a name the rules refuse keeps the field open with the reason, and nothing is written")
    func rejected() async {
        let (sut, _, store) = await makeSUT()

        _ = await sut.handle(.char("e"))
        _ = await sut.handle(.char("1"))
        _ = await sut.handle(.key(.enter))
        await sut.settle()

        #expect(sut.isCapturingText)
        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        sut.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))
        #expect(canvas.text.contains("Use letters, spaces, apostrophes, hyphens and dots only"))
        #expect(await store.writes == [])
    }

    @Test("a failed save puts the previous name back and says why")
    func failedSave() async {
        let (sut, shell, store) = await makeSUT()
        await store.setFailure(.storage(.saving, detail: "disk"))

        _ = await sut.handle(.char("e"))
        _ = await sut.handle(.char("x"))
        _ = await sut.handle(.key(.enter))
        await sut.settle()

        #expect(shell.user.name == "Demo Learner")
        #expect(shell.pendingName == nil)
        #expect(shell.reported == [.error("Something went wrong while saving your data.")])
    }

    @Test("a read of the learner that a rename overtook is dropped: the old name never comes back")
    func staleRead() async {
        let gate = Gate()
        let (sut, shell, store) = await makeSUT(load: false)
        await store.setGate(gate)
        sut.appear()  // reads the learner: held
        await gate.waitForArrivals(1)

        _ = await sut.handle(.char("e"))
        _ = await sut.handle(.char("x"))
        _ = await sut.handle(.key(.enter))
        await gate.open()
        await sut.settle()

        #expect(shell.user.name == "Demo Learnerx")
    }

    @Test("a count that could not be read says so, never a false 0")
    func unreadableCounts() async {
        let store = InMemoryStore()
        let shell = ShellSide()
        shell.counts = (nil, 4)
        let sut = ProfileFeature(learner: shell.learner, profiles: store, sessions: store).makeProfileScreen()
        sut.appear()
        await sut.settle()

        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        sut.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))

        #expect(canvas.lines[7] == "  Enrolled courses  — (could not be read)")
        #expect(canvas.lines[8] == "  Favourites        4")
    }

    @Test("l then y logs out even when the store cannot be reached")
    func logOutOffline() async {
        let (sut, shell, store) = await makeSUT()
        await store.setFailure(.connectivity)

        _ = await sut.handle(.char("l"))
        #expect(sut.statusMessage == StatusMessage("Log out? (y/n)"))
        _ = await sut.handle(.char("y"))

        #expect(shell.loggedOut == 1)
    }

    @Test("writes waiting for the server: the log-out question says how many (they stay for the next sign-in)")
    func logOutWithWaitingWrites() async {
        let (sut, shell, _) = await makeSUT()
        shell.waitingWrites = 2

        _ = await sut.handle(.char("l"))
        #expect(sut.statusMessage == StatusMessage("\(2) changes not synced yet. Log out? (y/n)"))
        #expect(Texts(.spanish)("\(2) changes not synced yet. Log out? (y/n)") == "2 cambios aún sin sincronizar. ¿Cerrar sesión? (s/n)")
        _ = await sut.handle(.char("y"))
        #expect(shell.loggedOut == 1)
    }

    @Test("remote mode: what is saved for offline shows; c then y clears it and says how many lessons went; n keeps it")
    func savedOffline() async throws {
        let shelf = Shelf()
        let (sut, shell, _) = await makeSUT(shelf: shelf)
        func line() -> String? {
            var canvas = TextCanvas(size: Size(width: 80, height: 24))
            sut.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))
            return canvas.lines.first { $0.contains("Saved offline") }
        }
        #expect(line() == "  Saved offline     3 courses · 41 lessons · 248 KB")

        _ = await sut.handle(.char("c"))
        #expect(sut.statusMessage == StatusMessage("Clear the lessons saved for offline? (y/n)"))
        _ = await sut.handle(.char("n"))
        #expect(sut.statusMessage == nil)
        #expect(await shelf.clears == 0)

        _ = await sut.handle(.char("c"))
        _ = await sut.handle(.char("y"))
        #expect(await shelf.clears == 1)
        #expect(shell.reported == [.success("\(plural: 39) saved lessons cleared — saved again at the next sign-in or enrollment")])
        #expect(line() == "  Saved offline     1 course · 2 lessons · 4 KB")
        #expect(
            Texts(.spanish)("\(plural: 1) saved lessons cleared — saved again at the next sign-in or enrollment")
                == "1 lección descargada borrada: se descarga de nuevo al iniciar sesión o inscribirte")
    }

    @Test("local mode: no saved-offline line, and c does nothing")
    func noShelfLocally() async {
        let (sut, _, _) = await makeSUT()
        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        sut.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))
        #expect(!canvas.lines.contains { $0.contains("Saved offline") })
        #expect(await sut.handle(.char("c")) == .ignored)
        #expect(sut.statusMessage == nil)
    }

    // MARK: - Helpers

    private func makeSUT(load: Bool = true, shelf: Shelf? = nil) async -> (any Screen, ShellSide, InMemoryStore) {
        let store = InMemoryStore()
        let shell = ShellSide()
        shell.shelf = shelf
        let screen = ProfileFeature(learner: shell.learner, profiles: store, sessions: store).makeProfileScreen()
        leaks.track(screen)
        if load {
            screen.appear()
            await screen.settle()
        }
        return (screen, shell, store)
    }
}
