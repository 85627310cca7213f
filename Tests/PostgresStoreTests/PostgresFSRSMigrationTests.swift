import Foundation
import Platform
import PostgresNIO
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

@testable import PostgresStore

/// v12, cards from SM-2 to FSRS: what a database of before it holds comes out as the embedded
/// store maps it, due on the day it was due; and the review log it adds.
@Suite("PostgreSQL: SM-2 cards to FSRS", .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
struct PostgresFSRSMigrationTests {
    /// SM-2 schedules as v8 kept them: (question, repetitions, ease × 1000, interval, due day).
    static let sm2: [(question: Int, repetitions: Int, easeMillis: Int, intervalDays: Int, dueDays: Int)] = [
        (0, 3, 2_360, 12, 0),
        // Lapsed: no recall in a row, a day apart, easier to forget.
        (1, 0, 1_960, 1, 2),
        // No interval (never written by the app): a card at the start of its steps.
        (2, 0, 2_500, 0, 1),
    ]

    @Test("an SM-2 card written before v12 comes out as CardSchedule.fromSM2 maps it, due at noon UTC of its due day")
    func sm2CardsCarryOver() async throws {
        let test = try await PostgresTestDatabase.create()
        let day = try #require(LearnerDay(iso: "2026-11-24"))
        try await test.database.migrate(seed: Self.seed, through: 11)
        let rows = Self.sm2.map { card in
            """
            ((SELECT id FROM learner), 'carry', 1, \(card.question), '{0}', true, \(day.number - 30), \(card.repetitions), \
            \(card.easeMillis), \(card.intervalDays), \(day.number + card.dueDays))
            """
        }
        try await test.database.execute(
            """
            INSERT INTO answer (user_id, course_id, lesson, question, chosen, is_right, answered_day, repetitions, ease_millis,
                interval_days, due_day)
            VALUES \(rows.joined(separator: ", "))
            """)
        try await test.database.migrate(seed: Self.seed)
        let learning = PostgresLearningRepository(database: test.database)
        let learner = try await ContractStore.postgres(test.database).sessions.signIn(
            email: DemoAccount.email, password: DemoAccount.password
        ).id
        let deck = try await learning.reviewDeck(userID: learner, at: StudyTime(noonOf: day.adding(days: 5), secondsFromGMT: 0), limit: 10)
        let habit = try await learning.habit(userID: learner, on: day, secondsFromGMT: 0)
        // The first card on the edges of its day, from 12 hours west of UTC to 11 east.
        var edges: [(offset: Int, before: Bool, on: Bool)] = []
        for offset in [-43_200, -18_000, 0, 19_800, 39_600] {
            let lastOfDayBefore = StudyTime(
                now: StudyTime.end(of: day.adding(days: -1), secondsFromGMT: offset) - 1, secondsFromGMT: offset)
            let before = try await learning.reviewDeck(userID: learner, at: lastOfDayBefore, limit: 10)
            let on = try await learning.reviewDeck(userID: learner, at: lastOfDayBefore.adding(seconds: 1), limit: 10)
            edges.append((offset, before.cards.contains { $0.ref.question == 0 }, on.cards.contains { $0.ref.question == 0 }))
        }
        await test.drop()

        #expect(deck.cards.map(\.ref.question) == [0, 2, 1], "earliest due first")
        #expect(deck.dueCount == 2 && deck.learningCount == 1 && deck.newCount == 0, "in the deck already: none new")
        for old in Self.sm2 {
            let card = try #require(deck.cards.first { $0.ref.question == old.question })
            let dueDay = day.adding(days: old.dueDays)
            #expect(
                card.schedule
                    == CardSchedule.fromSM2(
                        repetitions: old.repetitions, easeMillis: old.easeMillis, intervalDays: old.intervalDays, dueDay: dueDay))
            #expect(card.schedule.card.due == Date(timeIntervalSince1970: Double(dueDay.number * 86_400 + 43_200)))
        }
        #expect(deck.cards.map(\.schedule.card.state) == [.review, .learning, .review])
        #expect(habit.dueCount == 1, "one card due by the end of its day")
        for edge in edges {
            #expect(!edge.before && edge.on, "due on its day \(edge.offset) s from UTC, not the day before")
        }
    }

    @Test("a review writes the grade, its instant and the card as it was to the learner's log, in order")
    func reviewLog() async throws {
        let test = try await PostgresTestDatabase.migrated(courses: [Self.course])
        let store = ContractStore.postgres(test.database)
        let learning = PostgresLearningRepository(database: test.database)
        let learner = try await store.sessions.signIn(email: DemoAccount.email, password: DemoAccount.password).id
        _ = try await store.enrollments.enroll(userID: learner, courseID: "carry")
        let ref = QuestionRef(courseID: "carry", lesson: 1, question: 1)
        let time = StudyTime(noonOf: try #require(LearnerDay(iso: "2026-11-24")), secondsFromGMT: 3_600)
        _ = try await learning.answer([0], to: ref, userID: learner, at: time)
        let answered = try #require(try await learning.reviewDeck(userID: learner, at: time.adding(seconds: 3_600), limit: 10).cards.first)
        let first = try await learning.review(ref, grade: .hard, userID: learner, at: time.adding(seconds: 3_600))
        // Not due yet: refused, nothing written.
        await #expect(throws: AppError.notDue(ref)) {
            try await learning.review(ref, grade: .easy, userID: learner, at: time.adding(seconds: 3_601))
        }
        let second = try await learning.review(ref, grade: .good, userID: learner, at: time.adding(seconds: 86_400))
        let logger = test.database.logger
        let log = try await test.database.read { connection in
            let rows = try await connection.query(
                """
                SELECT course_id, lesson, question, grade, reviewed_at, \(unescaped: PostgresLearningRepository.scheduleColumns)
                FROM review_log WHERE user_id = \(learner.rawValue) ORDER BY id
                """,
                logger: logger)
            var entries: [ReviewLogEntry] = []
            for try await row in rows {
                var cells = CellReader(row)
                let ref = QuestionRef(courseID: CourseID(try cells.string()), lesson: try cells.int(), question: try cells.int())
                let text = try cells.string()
                guard let grade = ReviewGrade(rawValue: text) else { throw AppError.storage(.reading, detail: "a grade \(text)") }
                let reviewedAt = PostgresLearningRepository.date(try cells.int())
                entries.append(
                    ReviewLogEntry(ref: ref, grade: grade, reviewedAt: reviewedAt, before: try PostgresLearningRepository.schedule(&cells)))
            }
            return entries
        }
        await test.drop()

        #expect(answered.schedule.reviews == 0 && first.reviews == 1 && second.reviews == 2)
        #expect(
            log == [
                ReviewLogEntry(ref: ref, grade: .hard, reviewedAt: time.adding(seconds: 3_600).now, before: answered.schedule),
                ReviewLogEntry(ref: ref, grade: .good, reviewedAt: time.adding(seconds: 86_400).now, before: first),
            ])
    }

    static let course: (course: Course, lessons: [Lesson]?) = (
        Course.fixture(id: "carry", title: "Carry"),
        [
            Lesson(
                title: "One", minutes: 5,
                content: LessonContent(questions: (0..<3).map { Question(prompt: "Q\($0)?", choices: ["A", "B"], correct: [0]) }))
        ]
    )

    /// The demo learner (the only one) and the course of `sm2`.
    @Sendable static func seed() throws -> PostgresSeed {
        PostgresSeed(
            courses: [course], demoName: DemoAccount.name, demoEmail: DemoAccount.email,
            demoPasswordHash: try TestPasswordHasher.cheap.hash(DemoAccount.password))
    }
}
