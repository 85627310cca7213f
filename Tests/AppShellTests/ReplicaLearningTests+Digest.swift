import Foundation
import SharedKernel
import Storage
import Synchronization
import TestSupport
import Testing

@testable import AppShell

extension ReplicaLearningTests {
    /// Another terminal grades a card the day before; this one grades online, reads the picture
    /// and the streak, then grades offline the next day. Offline, the Review tab's picture and
    /// the streak are what the server says once the grades reach it: neither the other
    /// terminal's day nor a grade counted twice.
    @Test("offline, the memory picture and the streak are the server's last word with the learning done here since")
    func memoryAndStreakOffline() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let start = StudyTime(noonOf: LearnerDay(iso: "2026-11-20")!, secondsFromGMT: 3_600)
        let day = { (number: Int) in start.adding(seconds: 86_400 * number) }
        let wall = Mutex(start.now)
        let rig = try await Rig(directory, now: { wall.withLock { $0 } })
        let user = try await rig.ports.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        _ = try await rig.ports.enroll(userID: user.id, courseID: "rl-1")
        await rig.saver.finished()
        let first = QuestionRef(courseID: "rl-1", lesson: 1, question: 0)
        let second = QuestionRef(courseID: "rl-1", lesson: 1, question: 1)
        // Retention at its highest and no steps: every card in review, due within days.
        let settings = try ReviewSettings(retention: 0.97, learningSteps: [], relearningSteps: [])
        _ = try await rig.learning.answer([1], to: first, userID: user.id, at: start, settings: settings)
        _ = try await rig.learning.answer([1], to: second, userID: user.id, at: start, settings: settings)
        wall.withLock { $0 = day(1).now }
        _ = try await rig.learning.review(first, grade: .hard, userID: user.id, at: day(1), settings: settings)
        // Another terminal, the next day; its change read here as the event stream would.
        _ = try await rig.server.review(second, grade: .hard, userID: user.id, at: day(2), settings: settings)
        await rig.learning.refresh.refresh("rl-1", userID: user.id)
        wall.withLock { $0 = day(3).now }
        _ = try await rig.learning.review(first, grade: .hard, userID: user.id, at: day(3), settings: settings)
        let looked = day(3).adding(seconds: 60)
        let online = try await rig.learning.memory(userID: user.id, at: looked)
        #expect(online.reviewsToday == 1 && online.reviewed == 3, "every grade was of a card in review")
        #expect(try await rig.learning.habit(userID: user.id, on: looked.day, secondsFromGMT: 3_600).streakDays == 4)

        await rig.server.setFailure(Self.offline)
        wall.withLock { $0 = day(4).now }
        _ = try await rig.learning.review(second, grade: .again, userID: user.id, at: day(4), settings: settings)
        #expect(rig.status.waiting == 1)
        let now = day(4).adding(seconds: 60)
        let picture = try await rig.learning.memory(userID: user.id, at: now)
        let habit = try await rig.learning.habit(userID: user.id, on: now.day, secondsFromGMT: 3_600)
        #expect(habit.streakDays == 5, "the other terminal's day 2 is the server's word; day 4 is here")
        #expect(picture.reviewsToday == 1 && picture.reviewed == 4, "yesterday's grade is not today's; none counted twice")

        await rig.server.setFailure(nil)
        await Replication(sync: rig.sync, saver: rig.saver).catchUp()
        #expect(rig.status.waiting == 0)
        #expect(try await rig.server.memory(userID: user.id, at: now) == picture, "the picture offline is the server's once it has it all")
        #expect(try await rig.server.habit(userID: user.id, on: now.day, secondsFromGMT: 3_600) == habit)
    }

    @Test("offline, no memory picture or streak is made up before the server ever gave one")
    func noDigestNoPicture() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let rig = try await Rig(directory)
        let user = try await rig.ports.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        _ = try await rig.ports.enroll(userID: user.id, courseID: "rl-1")
        await rig.saver.finished()
        await rig.server.setFailure(Self.offline)
        let time = StudyTime(noonOf: LearnerDay(iso: "2026-11-24")!, secondsFromGMT: 0)
        let memory = await failure { () async throws(AppError) in try await rig.learning.memory(userID: user.id, at: time) }
        #expect(memory == Self.offline)
        let habit = await failure { () async throws(AppError) in
            try await rig.learning.habit(userID: user.id, on: time.day, secondsFromGMT: 0)
        }
        #expect(habit == Self.offline)
    }
}
