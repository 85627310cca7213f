import Foundation
import Platform
import Presentation
import SharedKernel
import Storage
import Synchronization
import TestSupport
import Testing

@testable import AppShell

/// Remote mode's study offline: the enrolled courses are saved in the background, and cards
/// saved are reviewed while the server is out of reach, each grade sent once when it is back.
@Suite("Replica learning: courses saved for offline, cards reviewed offline")
@MainActor
struct ReplicaLearningTests {
    static let question = Question(prompt: "Which?", choices: ["A", "B", "C"], correct: [1], explanation: "B it is.")
    static let course = Course.fixture(id: "rl-1", title: "Learning Offline", capacity: nil, lessonCount: 2)
    static let lessons = [
        Lesson(title: "Asked", minutes: 10, content: LessonContent(body: "Read me.", questions: [question, question])),
        Lesson(title: "Told", minutes: 5, content: LessonContent(body: "Only text.")),
    ]
    static let offline = AppError.unreachable(host: "edugo.test:8080")

    @MainActor
    final class Rig {
        let server: InMemoryStore
        let database: AppDatabase
        let sync: OutboxSync
        let saver: OfflineSaver
        let ports: ReplicaPorts
        let learning: ReplicaLearning
        let status = SyncStatus()
        /// What the saver reported, in order.
        let progress = ProgressLog()
        /// What the saver told the learner.
        let told = ToldLog()

        /// `now`: the outbox's wall clock, which its operations' times never fall behind.
        init(
            _ directory: TemporaryDirectory, maxBytes: Int = 200_000_000, clock: any Clock<Duration> = ContinuousClock(),
            now: @escaping @Sendable () -> Date = { Date() }
        ) async throws {
            server = InMemoryStore(courses: [ReplicaLearningTests.course], lessons: ["rl-1": ReplicaLearningTests.lessons])
            database = try AppDatabase.open(
                directory: directory.url, passwordHasher: PasswordHasher(rounds: 1_000), seedCatalog: { [] })
            let outbox = SQLiteOutbox(database: database, now: now)
            let status = status
            let replica = SQLiteReplica(database: database)
            sync = OutboxSync(outbox: outbox, server: server, refresh: LearningRefresh(server: server, replica: replica)) { report in
                status.take(report)
            }
            let seen = SeenCourses()
            let courses = ReplicaCourses(server: server, seen: seen, replica: replica, here: SQLiteCourseRepository(database: database))
            learning = ReplicaLearning(
                server: server, courses: courses, replica: replica, here: SQLiteLearningRepository(database: database), outbox: outbox,
                sync: sync)
            let (progress, told) = (progress, told)
            saver = OfflineSaver(
                enrolled: { [server] id throws(AppError) in try await server.enrolledCourses(userID: id) }, courses: courses,
                learning: learning, server: server, replica: replica, maxBytes: maxBytes,
                tell: { told.items.append($0) }, clock: clock,
                report: { reported in
                    progress.items.append(reported)
                    status.take(saving: reported)
                })
            ports = ReplicaPorts(
                server: .init(
                    restore: { [server] _ throws(AppError) in try await server.restoreSession() }, courses: server, enrollments: server,
                    favourites: server, profiles: server, sessions: server),
                seen: seen, database: database, outbox: outbox, sync: sync, saver: saver)
        }
    }

    @Test("enrolling saves the course; offline, its cards are graded, undone and graded again; back online, one grade reaches the server")
    func reviewOffline() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let rig = try await Rig(directory)
        let user = try await rig.ports.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        await rig.saver.finished()
        _ = try await rig.ports.enroll(userID: user.id, courseID: "rl-1")
        await rig.saver.finished()
        #expect(rig.progress.items == [.init(saved: 0, of: 1), .init(saved: 1, of: 1), nil], "told while lessons download, then gone")
        let replica = SQLiteReplica(database: rig.database)
        #expect(try await replica.unsavedLessons(of: "rl-1").isEmpty, "both lessons saved without being opened")
        #expect(try await replica.holds(.cards, userID: user.id))

        let time = StudyTime(noonOf: LearnerDay(iso: "2026-11-24")!, secondsFromGMT: 0)
        let first = QuestionRef(courseID: "rl-1", lesson: 1, question: 0)
        let second = QuestionRef(courseID: "rl-1", lesson: 1, question: 1)
        #expect(try await rig.learning.answer([1], to: first, userID: user.id, at: time).isRight)
        #expect(try await !rig.learning.answer([0], to: second, userID: user.id, at: time).isRight)
        #expect(
            try await SQLiteLearningRepository(database: rig.database).cards(userID: user.id, courseID: "rl-1")
                == (try await rig.server.cards(userID: user.id, courseID: "rl-1")),
            "the replica made the server's cards from its answers")

        await rig.server.setFailure(Self.offline)
        let later = time.adding(seconds: 86_400 * 3)
        let deck = try await rig.learning.reviewDeck(userID: user.id, at: later, limit: 20)
        #expect(Set(deck.cards.map(\.ref)) == [first, second], "the saved cards, read from the replica")
        #expect(deck.cards.allSatisfy { $0.question == Self.question }, "the questions offline with their right choices")
        let graded = try await rig.learning.review(first, grade: .good, userID: user.id, at: later)
        #expect(graded.reviews == 1)
        #expect(rig.status.waiting == 1)
        #expect(try await rig.learning.reviewDeck(userID: user.id, at: later, limit: 20).cards.map(\.ref) == [second])
        _ = try await rig.learning.undoReview(first, reviewedAt: later.now, userID: user.id)
        #expect(try await rig.learning.reviewDeck(userID: user.id, at: later, limit: 20).cards.count == 2, "the undo puts it back")
        let again = later.adding(seconds: 60)
        #expect(try await rig.learning.review(first, grade: .hard, userID: user.id, at: again).reviews == 1)
        #expect(rig.status.waiting == 3)

        await rig.server.setFailure(nil)
        #expect(try await rig.server.cards(userID: user.id, courseID: "rl-1").allSatisfy { $0.schedule.reviews == 0 }, "nothing sent")
        await Replication(sync: rig.sync, saver: rig.saver).catchUp()
        await rig.saver.finished()
        #expect(rig.status.waiting == 0)
        let onServer = try await rig.server.cards(userID: user.id, courseID: "rl-1")
        #expect(onServer.first { $0.ref == first }?.schedule.reviews == 1, "graded once: the undone grade is gone")
        #expect(try await SQLiteLearningRepository(database: rig.database).cards(userID: user.id, courseID: "rl-1") == onServer)
    }

    @Test("offline, an answer and grades made by the learner's own review settings reach the server scheduled by them")
    func settingsTravel() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let time = StudyTime(noonOf: LearnerDay(iso: "2026-11-24")!, secondsFromGMT: 0)
        // The outbox's wall clock, set by the test: the operations keep the screen's times.
        let wall = Mutex(time.now)
        let rig = try await Rig(directory, now: { wall.withLock { $0 } })
        let user = try await rig.ports.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        _ = try await rig.ports.enroll(userID: user.id, courseID: "rl-1")
        await rig.saver.finished()
        let mine = try ReviewSettings(retention: 0.8, learningSteps: [30], relearningSteps: [120, 900])
        let first = QuestionRef(courseID: "rl-1", lesson: 1, question: 0)
        let second = QuestionRef(courseID: "rl-1", lesson: 1, question: 1)
        _ = try await rig.learning.answer([1], to: first, userID: user.id, at: time, settings: mine)

        await rig.server.setFailure(Self.offline)
        let later = time.adding(seconds: 600)
        wall.withLock { $0 = later.now.addingTimeInterval(3_600) }
        #expect(try await !rig.learning.answer([1], to: second, userID: user.id, at: later, settings: mine).isChecked)
        _ = try await rig.learning.review(first, grade: .again, userID: user.id, at: later, settings: mine)
        let graded = try await rig.learning.review(first, grade: .good, userID: user.id, at: later.adding(seconds: 60), settings: mine)

        await rig.server.setFailure(nil)
        await Replication(sync: rig.sync, saver: rig.saver).catchUp()
        await rig.saver.finished()
        #expect(rig.status.waiting == 0)
        let answer = try #require(try await rig.server.answers(userID: user.id, courseID: "rl-1").first { $0.ref == first })
        let byDefaults = LearningRules.replay(
            [ReviewGrading(.again, at: later.now), ReviewGrading(.good, at: later.now.addingTimeInterval(60))],
            from: LearningRules.firstCard(of: answer, userID: user.id, time: time, settings: mine), ref: first, userID: user.id)
        #expect(graded != byDefaults.schedule, "the learner's settings schedule these grades otherwise than the defaults")
        let onServer = try await rig.server.cards(userID: user.id, courseID: "rl-1")
        #expect(
            onServer.first { $0.ref == first }?.schedule == graded, "the server replayed the grades by the settings they were given with")
        #expect(try await SQLiteLearningRepository(database: rig.database).cards(userID: user.id, courseID: "rl-1") == onServer)
        let checked = try await rig.server.cards(userID: user.id, courseID: "rl-1").first { $0.ref == second }
        let answered = try #require(try await rig.server.answers(userID: user.id, courseID: "rl-1").first { $0.ref == second })
        #expect(checked?.schedule == LearningRules.firstCard(of: answered, userID: user.id, time: later, settings: mine))
    }

    @Test("past [offline] max_megabytes no more lessons are saved; the answers and cards still are")
    func savedUpToTheCap() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let rig = try await Rig(directory, maxBytes: 5)
        let user = try await rig.ports.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        _ = try await rig.ports.enroll(userID: user.id, courseID: "rl-1")
        await rig.saver.finished()
        let replica = SQLiteReplica(database: rig.database)
        #expect(try await replica.unsavedLessons(of: "rl-1") == [2], "the first lesson went past the cap: the second waits")
        #expect(try await replica.savedLessonBytes() > 5)
        #expect(try await replica.holds(.cards, userID: user.id))
        #expect(rig.told.items.map(\.text) == ["Saved for offline up to \(0) MB ([offline] max_megabytes)"], "told once")
    }

    @Test("offline, a card never saved here is the server's to grade: nothing is queued")
    func unsavedCardNeedsServer() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let rig = try await Rig(directory)
        // Signed in elsewhere: nothing was ever saved here.
        let user = try await rig.server.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        _ = try await rig.server.enroll(userID: user.id, courseID: "rl-1")
        let time = StudyTime(noonOf: LearnerDay(iso: "2026-11-24")!, secondsFromGMT: 0)
        let first = QuestionRef(courseID: "rl-1", lesson: 1, question: 0)
        _ = try await rig.server.answer([1], to: first, userID: user.id, at: time)

        await rig.server.setFailure(Self.offline)
        let later = time.adding(seconds: 86_400 * 3)
        let refused = await failure { () async throws(AppError) in
            try await rig.learning.review(first, grade: .good, userID: user.id, at: later)
        }
        #expect(refused == Self.offline)
        #expect(rig.status.waiting == 0)
        let deck = await failure { () async throws(AppError) in try await rig.learning.reviewDeck(userID: user.id, at: later, limit: 5) }
        #expect(deck == Self.offline, "no deck made up from a replica that never saved the cards")
    }
}

extension ReplicaLearningTests {
    @Test("offline, the catalog searches the courses saved here and says how many; the server back, its catalog again")
    func catalogOffline() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let rig = try await Rig(directory)
        let searched = SearchedLog()
        let courses = ReplicaCourses(
            server: rig.server, seen: SeenCourses(), replica: SQLiteReplica(database: rig.database),
            here: SQLiteCourseRepository(database: rig.database), searching: { searched.items.append($0) })
        await rig.server.setFailure(Self.offline)
        let never = await failure { () async throws(AppError) in try await courses.count(CatalogQuery.parse(""), for: nil) }
        #expect(never == Self.offline, "nothing saved: the server's absence stands")

        await rig.server.setFailure(nil)
        let user = try await rig.ports.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        _ = try await rig.ports.enroll(userID: user.id, courseID: "rl-1")
        await rig.saver.finished()
        await rig.server.setFailure(Self.offline)
        let query = CatalogQuery.parse("offline")
        #expect(try await courses.page(query, for: user.id, at: .first, limit: 10).map(\.course.id) == ["rl-1"])
        #expect(try await courses.count(CatalogQuery.parse("nothing-like-it"), for: user.id) == .exactly(0))
        #expect(searched.items.last == 1)

        await rig.server.setFailure(nil)
        _ = try await courses.count(query, for: user.id)
        #expect(searched.items.last == .some(nil), "the server's catalog again")
    }
}

@MainActor
final class ToldLog {
    var items: [StatusMessage] = []
}

@MainActor
final class SearchedLog {
    var items: [Int?] = []
}

@MainActor
final class ProgressLog {
    var items: [OfflineSaver.Progress?] = []
}

/// The error `body` throws; nil when it returns.
@MainActor
func failure<T>(_ body: () async throws(AppError) -> T) async -> AppError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
