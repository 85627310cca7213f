import Foundation
import Presentation
import Profile
import SharedKernel
import Storage
import TerminalUI
import TestSupport
import Testing

@testable import AppShell
@testable import Courses

/// Answers given while the server cannot be reached: only the server knows the right
/// choices, so each is queued unchecked, shown so, and checked once it is sent.
extension ReplicaLearningTests {
    static let noon = StudyTime(noonOf: LearnerDay(iso: "2026-11-24")!, secondsFromGMT: 0)

    @Test("offline, an answer to a saved lesson is queued unchecked, once; a bad one is refused; sent, the first answer given is kept")
    func answerOffline() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let rig = try await Rig(directory)
        let user = try await rig.enrolled()
        let (first, second) = (QuestionRef(courseID: "rl-1", lesson: 1, question: 0), QuestionRef(courseID: "rl-1", lesson: 1, question: 1))

        // On the wall's clock: an operation's time never goes back past the enrollment's.
        let now = StudyTime(now: Date(), secondsFromGMT: 0)
        await rig.server.setFailure(Self.offline)
        let given = try await rig.learning.answer([1], to: first, userID: user.id, at: now)
        #expect(given == .unchecked([1], to: first))
        #expect(rig.status.waiting == 1)
        let again = try await rig.learning.answer([0], to: first, userID: user.id, at: now.adding(seconds: 5))
        #expect(again == given, "the first answer stands; nothing more queued")
        let bad = await failure { () async throws(AppError) in
            try await rig.learning.answer([7], to: second, userID: user.id, at: now)
        }
        #expect(bad == .invalidAnswer(second))
        let early = try await rig.learning.answer([2], to: second, userID: user.id, at: now.adding(seconds: 60))
        #expect(!early.isChecked)
        #expect(rig.status.waiting == 2)
        #expect(try await rig.learning.answers(userID: user.id, courseID: "rl-1") == [given, early])
        #expect(
            try await rig.learning.reviewDeck(userID: user.id, at: now.adding(seconds: 120), limit: 5).cards.isEmpty,
            "no card before the server checks")

        // Meanwhile another terminal answered the second question, later: the earlier answer is kept.
        await rig.server.setFailure(nil)
        _ = try await rig.server.answer([1], to: second, userID: user.id, at: now.adding(seconds: 3_600))
        await Replication(sync: rig.sync, saver: rig.saver).catchUp()
        await rig.saver.finished()
        #expect(rig.status.waiting == 0)
        let onServer = try await rig.server.answers(userID: user.id, courseID: "rl-1")
        #expect(Set(onServer.map { [$0.ref.question: $0.chosen] }) == [[0: [1]], [1: [2]]], "each question's first answer")
        #expect(onServer.allSatisfy { $0.isChecked })
        let here = SQLiteLearningRepository(database: rig.database)
        #expect(Set(try await here.answers(userID: user.id, courseID: "rl-1")) == Set(onServer), "the replica holds them checked")
        #expect(try await here.cards(userID: user.id, courseID: "rl-1") == (try await rig.server.cards(userID: user.id, courseID: "rl-1")))
    }

    @Test("offline, a lesson never saved here cannot be answered: the server's absence is the reason, nothing queued")
    func unsavedLessonNeedsServer() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let rig = try await Rig(directory, maxBytes: 0)
        let user = try await rig.enrolled()
        await rig.server.setFailure(Self.offline)
        let refused = await failure { () async throws(AppError) in
            try await rig.learning.answer([1], to: QuestionRef(courseID: "rl-1", lesson: 1, question: 0), userID: user.id, at: Self.noon)
        }
        #expect(refused == Self.offline)
        #expect(rig.status.waiting == 0)
    }

    @Test("the reader offline: the answer shows saved and waiting, the choice marked; once sent, the reader shows it checked")
    func readerShowsWaiting() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let rig = try await Rig(directory)
        let user = try await rig.enrolled()
        let feature = CoursesFeature(
            learner: user.id, enrollments: rig.ports, courses: rig.learning.courses,
            learning: LessonAccess(repository: rig.learning, time: { Self.noon }), report: { _ in })
        await feature.prepare()
        await rig.server.setFailure(Self.offline)
        let reader = try #require(
            feature.makeReaderScreen(courseID: "rl-1", lesson: 1, onOpenLesson: { _ in }, onBack: {}) as? LessonReaderScreen)
        reader.appear()
        await reader.settle()
        func draw() -> [String] {
            var canvas = TextCanvas(size: Size(width: 60, height: 14))
            reader.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 0, width: 60, height: 14)))
            return canvas.lines
        }
        _ = draw()
        _ = await reader.handle(.key(.character("G")))
        _ = draw()
        _ = await reader.handle(.key(.character(" ")))
        let ref = QuestionRef(courseID: "rl-1", lesson: 1, question: 0)
        let b = try #require(ChoiceOrder.shuffled(count: 3, for: ref, on: Self.noon.day).position(of: 1)) + 1
        _ = await reader.handle(.key(.character(Character(String(b)))))
        _ = await reader.handle(.key(.enter))
        let waiting = draw()
        #expect(waiting.contains { $0.hasPrefix("  \(b) ● B") }, "\(waiting)")
        #expect(waiting.contains { $0.contains("⇡ Answer saved — checked when back online") }, "\(waiting)")
        #expect(!waiting.contains { $0.contains("Right") })

        await rig.server.setFailure(nil)
        await Replication(sync: rig.sync, saver: rig.saver).catchUp()
        await rig.saver.finished()
        feature.answersChanged("rl-1")
        await reader.settle()
        let checked = draw()
        #expect(checked.contains { $0.contains("✓ Right") }, "\(checked)")
        #expect(checked.contains { $0.contains("B it is.") })
    }

    @Test("clearing what is saved forgets the lessons but those answered in: offline, their cards still review, the others need the server")
    func clearSaved() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let rig = try await Rig(directory)
        let user = try await rig.enrolled()
        let first = QuestionRef(courseID: "rl-1", lesson: 1, question: 0)
        _ = try await rig.learning.answer([1], to: first, userID: user.id, at: Self.noon)
        let before = try #require(await rig.saver.saved())
        #expect(before.courses == 1 && before.lessons == 2)

        #expect(await rig.saver.clear() == 1, "the lesson without an answer")
        let left = try #require(await rig.saver.saved())
        #expect(left.courses == 1 && left.lessons == 1)
        #expect(left.bytes > 0)

        await rig.server.setFailure(Self.offline)
        let deck = try await rig.learning.reviewDeck(userID: user.id, at: Self.noon.adding(seconds: 86_400 * 3), limit: 5)
        #expect(deck.cards.map(\.ref) == [first], "the answered lesson's card, with its question")
        let gone = await failure { () async throws(AppError) in try await rig.learning.lessonContent(courseID: "rl-1", lesson: 2) }
        #expect(gone == Self.offline)
    }

    @Test("the server's news of a grade in another terminal: once the news is quiet, the cards saved here are read again")
    func cardsFollowOtherTerminals() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let clock = ManualClock()
        let rig = try await Rig(directory, clock: clock)
        let user = try await rig.enrolled()
        let first = QuestionRef(courseID: "rl-1", lesson: 1, question: 0)
        _ = try await rig.learning.answer([1], to: first, userID: user.id, at: Self.noon)
        let server = ManualChangeFeed()
        let feed = ReplicaChangeFeed(server: server)
        let saver = rig.saver
        feed.whenLearningChanges { learner, courseID in await saver.learningChanged(learner, courseID: courseID) }
        let news = feed.news(for: user.id)
        let here = SQLiteLearningRepository(database: rig.database)

        // Another terminal grades the card: its news comes, and the cards are read once it is quiet.
        let later = Self.noon.adding(seconds: 86_400 * 3)
        _ = try await rig.server.review(first, grade: .good, userID: user.id, at: later)
        server.send(.changed([.learning(user.id, nil)]), to: user.id)
        await clock.waitForSleeper()
        #expect(try await here.cards(userID: user.id, courseID: "rl-1") != (try await rig.server.cards(userID: user.id, courseID: "rl-1")))
        clock.advance(by: .seconds(10))
        await saver.refreshFinished()
        #expect(try await here.cards(userID: user.id, courseID: "rl-1") == (try await rig.server.cards(userID: user.id, courseID: "rl-1")))

        await rig.server.setFailure(Self.offline)
        let deck = try await rig.learning.reviewDeck(userID: user.id, at: later, limit: 5)
        #expect(!deck.cards.contains { $0.ref == first }, "graded elsewhere: not due here either")
        _ = news
    }

    @Test("an answer sent whose checked answer cannot be read back yet still shows answered, is never queued again, and is read back later")
    func sentNotReadBack() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let rig = try await Rig(directory)
        let user = try await rig.enrolled()
        let first = QuestionRef(courseID: "rl-1", lesson: 1, question: 0)
        let now = StudyTime(now: Date(), secondsFromGMT: 0)
        await rig.server.setFailure(Self.offline)
        _ = try await rig.learning.answer([1], to: first, userID: user.id, at: now)

        // Back, but the answers cannot be read: the queue goes, the answer is not read back.
        await rig.server.setFailure(nil)
        await rig.server.setFailure(Self.offline, only: { if case .answers = $0 { true } else { false } })
        await Replication(sync: rig.sync, saver: rig.saver).catchUp()
        await rig.saver.finished()
        #expect(rig.status.waiting == 0, "sent: nothing waits")

        await rig.server.setFailure(Self.offline)
        #expect(try await rig.learning.answers(userID: user.id, courseID: "rl-1") == [.unchecked([1], to: first)], "still answered")
        let again = try await rig.learning.answer([0], to: first, userID: user.id, at: now.adding(seconds: 30))
        #expect(again == .unchecked([1], to: first))
        #expect(rig.status.waiting == 0, "nothing queued again")

        await rig.server.setFailure(nil)
        await rig.saver.start(user.id)
        await rig.saver.finished()
        let here = try await SQLiteLearningRepository(database: rig.database).answers(userID: user.id, courseID: "rl-1")
        #expect(here.map(\.chosen) == [[1]] && here.allSatisfy { $0.isChecked && $0.isRight }, "read back checked")
        #expect(try await SQLiteOutbox(database: rig.database).pendingAnswers(userID: user.id, courseID: "rl-1").isEmpty)
    }
}

extension ReplicaLearningTests.Rig {
    /// The demo learner signed in here and enrolled in the course, which is saved for offline.
    func enrolled() async throws -> User {
        let user = try await ports.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        _ = try await ports.enroll(userID: user.id, courseID: "rl-1")
        await saver.finished()
        return user
    }
}
