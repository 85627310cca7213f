import Foundation
import Platform
import PostgresStore
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

/// What the learning contract cannot say of PostgreSQL alone: a new database's seed (the
/// built-in lessons' content and the demo learner's cards, as the embedded store's v16 and
/// v17), and the rules holding when many servers' requests race on one card.
@Suite("PostgreSQL: lessons and reviews", .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
struct PostgresLearningTests {
    @Test("a new database has the built-in lessons' bodies and questions, and the demo learner cards due today")
    func seed() async throws {
        let test = try await PostgresTestDatabase.seeded()
        let learning = PostgresLearningRepository(database: test.database)
        let courses = PostgresCourseRepository(database: test.database)
        let builtIn = try #require(try BuiltInCatalog.load().first { $0.course.id == "linux-command-line" }?.lessons)
        let today = LearnerDay(Date(), secondsFromGMT: TimeZone.current.secondsFromGMT())

        let first = try await learning.lessonContent(courseID: "linux-command-line", lesson: 1)
        let syllabus = try await courses.syllabus(of: "linux-command-line")
        let demo = try await ContractStore.postgres(test.database).sessions.signIn(email: DemoAccount.email, password: DemoAccount.password)
        let deck = try await learning.reviewDeck(userID: demo.id, on: today, limit: 100)
        let later = try await learning.reviewDeck(userID: demo.id, on: today.adding(days: 30), limit: 100)
        await test.drop()

        #expect(first == builtIn[0].content)
        #expect(syllabus.lessons.map(\.questionCount) == builtIn.map(\.questionCount))
        #expect(deck.dueCount > 0 && deck.cards.count == deck.dueCount, "cards due on the first day")
        #expect(later.dueCount > deck.dueCount, "and more over the next days")
    }

    @Test("ten answers at once with different choices keep one; ten reviews at once with different grades move the card once")
    func races() async throws {
        let test = try await PostgresTestDatabase.migrated(courses: [
            (
                Course.fixture(id: "race", title: "Race"),
                [
                    Lesson(
                        title: "One", minutes: 5,
                        content: LessonContent(questions: [Question(prompt: "?", choices: ["A", "B"], correct: [0])]))
                ]
            )
        ])
        let store = ContractStore.postgres(test.database)
        let learning = PostgresLearningRepository(database: test.database)
        let learner = try await store.sessions.signIn(email: DemoAccount.email, password: DemoAccount.password).id
        _ = try await store.enrollments.enroll(userID: learner, courseID: "race")
        let ref = QuestionRef(courseID: "race", lesson: 1, question: 0)
        let day = try #require(LearnerDay(iso: "2026-11-24"))

        let answers = try await withThrowingTaskGroup(of: Answer.self) { group in
            for attempt in 0..<10 { group.addTask { try await learning.answer([attempt % 2], to: ref, userID: learner, on: day) } }
            return try await group.reduce(into: Set<Answer>()) { $0.insert($1) }
        }
        let next = day.adding(days: 1)
        let schedules = try await withThrowingTaskGroup(of: CardSchedule.self) { group in
            // Two grades: reviews that did not take turns would give two schedules.
            for attempt in 0..<10 {
                group.addTask { try await learning.review(ref, grade: attempt % 2 == 0 ? .good : .easy, userID: learner, on: next) }
            }
            return try await group.reduce(into: Set<CardSchedule>()) { $0.insert($1) }
        }
        let stored = try await learning.answers(userID: learner, courseID: "race")
        await test.drop()

        #expect(answers.count == 1 && stored.count == 1 && stored.first.map(answers.contains) == true)
        let schedule = try #require(schedules.first)
        #expect(schedules.count == 1, "every review saw the one that went first: \(schedules)")
        #expect(schedule.due > next, "reviewed once: no longer due")
    }
}
