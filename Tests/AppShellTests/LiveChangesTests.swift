import Foundation
import Presentation
import SharedKernel
import Synchronization
import TerminalUI
import TestSupport
import Testing

@testable import AppShell

/// The store's news reaches every screen that shows what it names, with no key pressed:
/// another terminal's enrollment, favourite and rename, and the catalog's seats.
@Suite("Live: the store's news on every screen")
@MainActor
final class LiveChangesTests {
    /// What `makeSUT` made: each must be gone once the test is.
    private let leaks = LeakTracker()

    deinit {
        #expect(leaks.alive == [], "kept alive after the test")
    }

    @Test("another terminal enrolls and marks a lesson: the catalog's ✓ and My courses show it")
    func enrollmentElsewhere() async {
        let (sut, store, _) = await makeSignedIn()
        await store.addEnrollment(.fixture(id: 7, courseID: "git", lessonsDone: [1]))

        sut.flow.scope?.apply(.changed([.enrollment(User.demo.id, "git"), .course("git")]))
        await sut.settle()

        #expect(row("Git Beyond the Basics", in: frame(sut))?.contains("✓") == true)
        sut.enqueue([.char("2")])
        await sut.settle()
        #expect(frame(sut).contains("Git Beyond the Basics"))
    }

    @Test("another terminal adds a favourite and renames the learner: the ★ and the header's name follow")
    func favouriteAndNameElsewhere() async {
        let (sut, store, _) = await makeSignedIn()
        await store.arrangeFavourite(true, User.demo.id, "docker")
        _ = try? await store.updateName(userID: User.demo.id, to: "Renamed Elsewhere")

        sut.flow.scope?.apply(.changed([.favourite(User.demo.id, "docker"), .profile(User.demo.id)]))
        await sut.settle()

        let lines = frame(sut)
        #expect(row("Docker Essentials", in: lines)?.contains("★") == true)
        #expect(lines.components(separatedBy: "\n")[0].hasSuffix("Renamed Elsewhere"))
    }

    @Test("another terminal answers, then reviews: the review tab, the profile's cards due and My courses' order follow")
    func learningElsewhere() async throws {
        let day = LearnerDay(iso: "2026-11-24")!
        let question = Question(prompt: "Which?", choices: ["A", "B"], correct: [0], explanation: "A.")
        let (sut, store, _) = await makeSignedIn(today: day) { store in
            await store.setLessons([Lesson(title: "Ask", minutes: 5, content: LessonContent(questions: [question]))], of: "git")
            await store.addEnrollment(.fixture(id: 1, courseID: "git", enrolledAt: Date(timeIntervalSince1970: 1_700_000_000)))
            await store.addEnrollment(.fixture(id: 2, courseID: "docker", enrolledAt: Date(timeIntervalSince1970: 1_700_000_100)))
        }
        sut.enqueue([.char("5")])
        await sut.settle()
        #expect(frame(sut).contains("Review  0 new · 0 learning · 0 due"))
        #expect(header(sut, width: 140).hasSuffix("2 enrolled · 0 ★ · 0 due · Demo Learner"), "the status")

        // Answered yesterday elsewhere: due today.
        let ref = QuestionRef(courseID: "git", lesson: 1, question: 0)
        _ = try await store.answer([0], to: ref, userID: User.demo.id, at: StudyTime(noonOf: day.adding(days: -1), secondsFromGMT: 0))
        sut.flow.scope?.apply(.changed([.learning(User.demo.id, "git")]))
        await sut.settle()
        #expect(frame(sut).contains("Review  1 new · 0 learning · 0 due"))
        #expect(header(sut, width: 140).hasSuffix("2 enrolled · 0 ★ · 1 due · Demo Learner"))
        // A card shows: the digits pick its answers here, Alt and a digit switch tabs.
        sut.enqueue([.key(.alt("2"))])
        await sut.settle()
        let courses = frame(sut)
        let git = try #require(courses.range(of: "Git Beyond the Basics"))
        let docker = try #require(courses.range(of: "Docker Essentials"))
        #expect(git.lowerBound < docker.lowerBound, "the course answered in comes first")
        sut.enqueue([.key(.alt("4"))])
        await sut.settle()
        #expect(frame(sut).contains("1 due today (tab 5)"))

        _ = try await store.review(ref, grade: .easy, userID: User.demo.id, at: LearnerCalendar(start: day).studyTime)
        sut.flow.scope?.apply(.changed([.learning(User.demo.id, nil)]))
        await sut.settle()
        #expect(frame(sut).contains("0 due today (tab 5)"))
        sut.enqueue([.char("5")])
        await sut.settle()
        #expect(frame(sut).contains("Review  0 new · 0 learning · 0 due"))
    }

    @Test("the first catalog frame shows its rows' ✓ and ★ without the learner's whole lists; they load behind it, for the counts")
    func firstFrameWithoutTheLists() async throws {
        let store = InMemoryStore(courses: ShellControllerTests.courses, signedIn: User.demo.id)
        _ = try await store.enroll(userID: User.demo.id, courseID: "git")
        try await store.setFavourite(true, userID: User.demo.id, courseID: "docker")
        let lists = Gate()
        await store.setGate(lists) { message in
            switch message {
            case .enrolledCourses, .favourites: true
            default: false
            }
        }
        let sut = ShellController(ports: ShellControllerTests.ports(store), clock: ShellClock(ManualClock()))
        leaks.track(sut)
        sut.terminalSize = Size(width: 80, height: 24)
        await sut.start()
        await lists.waitForArrivals(2)  // both whole lists asked for, and held
        sut.syncVisibleScreen()
        await sut.frontScreen?.settle()

        let first = frame(sut)
        let git = try #require(first.split(separator: "\n").first { $0.contains("Git Beyond the Basics") })
        let docker = try #require(first.split(separator: "\n").first { $0.contains("Docker Essentials") })
        #expect(git.contains("✓") && !git.contains("★"))
        #expect(docker.contains("★") && !docker.contains("✓"))
        #expect(!header(sut, width: 140).contains("enrolled"), "no counts before the lists")

        await lists.open()
        await sut.settle()
        #expect(header(sut, width: 140).contains("1 enrolled · 1 ★"))
    }

    @Test("another learner's changes are none of this terminal's business: nothing is read")
    func anotherLearnersNews() async {
        let (sut, store, _) = await makeSignedIn()
        let before = await store.messages.count

        sut.flow.scope?.apply(.changed([.enrollment(UserID(999), "git"), .favourite(UserID(999), "git"), .profile(UserID(999))]))
        await sut.settle()

        #expect(await store.messages.count == before)
    }

    @Test("news from the feed is followed with no key pressed, and stops when the learner signs out")
    func followsTheFeed() async {
        let (sut, store, feed) = await makeSignedIn()
        #expect(feed.listeners(for: User.demo.id) == 1)
        await store.arrangeFavourite(true, User.demo.id, "swift")

        feed.send(.changed([.favourite(User.demo.id, "swift")]), to: User.demo.id)
        await ObservedCondition.wait { [weak self] in self?.row("Swift Fundamentals", in: self?.frame(sut) ?? "")?.contains("★") == true }

        sut.flow.scope?.close()
        #expect(feed.listeners(for: User.demo.id) == 0)
    }

    // MARK: - Helpers

    private func makeSignedIn(
        today: LearnerDay? = nil, arrange: (InMemoryStore) async -> Void = { _ in }
    ) async -> (ShellController, InMemoryStore, ManualChangeFeed) {
        let store = InMemoryStore(courses: ShellControllerTests.courses, signedIn: User.demo.id)
        await arrange(store)
        let feed = ManualChangeFeed()
        var ports = ShellControllerTests.ports(store)
        ports.changes = feed
        if let today { ports.calendar = LearnerCalendar(start: today) }
        let sut = ShellController(ports: ports, clock: ShellClock(ManualClock()))
        leaks.track(sut)
        sut.terminalSize = Size(width: 80, height: 24)
        await sut.start()
        await sut.settle()
        return (sut, store, feed)
    }

    private func frame(_ sut: ShellController) -> String {
        sut.syncVisibleScreen()
        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        _ = sut.draw(in: &canvas, tick: 0)
        return canvas.text
    }

    private func header(_ sut: ShellController, width: Int) -> String {
        sut.terminalSize = Size(width: width, height: 24)
        defer { sut.terminalSize = Size(width: 80, height: 24) }
        var canvas = TextCanvas(size: Size(width: width, height: 24))
        _ = sut.draw(in: &canvas, tick: 0)
        return canvas.lines[0]
    }

    private func row(_ title: String, in frame: String) -> String? {
        frame.components(separatedBy: "\n").first { $0.contains(title) }
    }
}

/// A feed whose news the test sends, to whoever listens for a learner.
final class ManualChangeFeed: ChangeFeed {
    private let streams = Mutex<[UserID: [Int: AsyncStream<ChangeNews>.Continuation]]>([:])
    private let nextID = Atomic<Int>(0)

    func news(for learner: UserID) -> AsyncStream<ChangeNews> {
        let (stream, continuation) = AsyncStream.makeStream(of: ChangeNews.self)
        let id = nextID.add(1, ordering: .relaxed).newValue
        streams.withLock { $0[learner, default: [:]][id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.streams.withLock { _ = $0[learner]?.removeValue(forKey: id) }
        }
        return stream
    }

    func send(_ news: ChangeNews, to learner: UserID) {
        for continuation in streams.withLock({ Array(($0[learner] ?? [:]).values) }) { continuation.yield(news) }
    }

    func listeners(for learner: UserID) -> Int {
        streams.withLock { $0[learner]?.count ?? 0 }
    }
}
