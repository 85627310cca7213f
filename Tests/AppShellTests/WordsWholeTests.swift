import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import AppShell

/// Every screen drawn in both languages at 80×24 and 60×16, over courses whose data is short
/// enough never to be cut: any `…` left is a label, a heading or a message of the app cut in its
/// place (issue 45: no text wider than its column).
@Suite("Every screen in every language: no word of the app cut")
@MainActor
final class WordsWholeTests {
    private let leaks = LeakTracker()

    deinit {
        #expect(leaks.alive == [], "kept alive after the test")
    }

    static let courses: [Course] = [
        .fixture(id: "art", title: "Art", instructor: "Ana Ruiz", category: "Design", price: Price(minorUnits: 1_000, currency: "EUR")),
        .fixture(id: "git", title: "Git", instructor: "Li Wei", category: "Business", price: Price(minorUnits: 0, currency: "EUR")),
        .fixture(id: "sql", title: "SQL", instructor: "Jo Kim", category: "Languages", price: Price(minorUnits: 4_900, currency: "USD")),
    ]

    static let question = Question(prompt: "Which?", choices: ["A", "B"], correct: [0], explanation: "A.")
    static let lessons = [
        Lesson(title: "One", minutes: 10, content: LessonContent(body: "Short.", questions: [question])),
        Lesson(title: "Two", minutes: 20),
    ]

    /// What a learner sees, screen by screen: the keys that bring each one up, from the catalog.
    static let visits: [(name: String, keys: [InputEvent])] = [
        ("catalog", []), ("catalog sorted", [.char("s")]), ("course page", [.key(.enter)]),
        ("my courses", [.char("2")]), ("favourites", [.char("3")]), ("profile", [.char("4")]), ("review", [.char("5")]),
        ("help", [.char("?")]), ("palette", [.char(":")]), ("unenroll question", [.char("2"), .char("u")]),
        ("reader", [.char("2"), .key(.enter)]),
    ]

    @Test(
        "no … in any screen of the app but where data is cut",
        arguments: [Language.english, .spanish], [Size(width: 80, height: 24), Size(width: 60, height: 16)])
    func wordsWhole(language: Language, size: Size) async throws {
        var cut: [String] = []
        for visit in Self.visits {
            let sut = await makeSignedIn(language: language, size: size)
            sut.enqueue(visit.keys)
            await sut.settle()
            sut.syncVisibleScreen()
            var canvas = TextCanvas(size: size)
            _ = sut.draw(in: &canvas, tick: 0)
            // The header's data directory is a path the test does not choose: its row aside.
            cut += canvas.lines.dropFirst().filter { $0.contains("…") }.map { "\(visit.name): \($0)" }
        }
        #expect(cut.isEmpty, "\(language) \(size.width)×\(size.height):\n\(cut.joined(separator: "\n"))")
    }

    private func makeSignedIn(language: Language, size: Size) async -> ShellController {
        let store = InMemoryStore(courses: Self.courses, lessons: ["git": Self.lessons, "art": Self.lessons], signedIn: User.demo.id)
        await store.addEnrollment(.fixture(courseID: "git", lessonsDone: [1]))
        try? await store.setFavourite(true, userID: User.demo.id, courseID: "art")
        let sut = ShellController(ports: ShellControllerTests.ports(store), clock: ShellClock(ManualClock()), store: .local(path: "/d"))
        sut.look.texts = Texts(language)
        leaks.track(sut)
        sut.terminalSize = size
        await sut.start()
        await sut.settle()
        return sut
    }
}
