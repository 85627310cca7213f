import Foundation
import Logging
import Platform
import PostgresNIO
import SharedKernel

/// What a new database starts with: the built-in catalog and the demo learner, whose password
/// is hashed by the caller (the app's own hashing).
public struct PostgresSeed: Sendable {
    public var courses: [(course: Course, lessons: [Lesson]?)]
    public var demoName: String
    public var demoEmail: String
    public var demoPasswordHash: String

    public init(courses: [(course: Course, lessons: [Lesson]?)], demoName: String, demoEmail: String, demoPasswordHash: String) {
        self.courses = courses
        self.demoName = demoName
        self.demoEmail = demoEmail
        self.demoPasswordHash = demoPasswordHash
    }
}

/// What the migrations seed (`PostgresDatabase.migrations`): the built-in catalog, the demo
/// learner and its progress and answers, apart from the schema.
extension PostgresDatabase {
    /// v2: the built-in catalog and the demo learner, with its starting progress.
    static func seedCatalogAndDemoLearner(_ seed: PostgresSeed, in connection: PostgresConnection, logger: Logger) async throws {
        // The lessons' content waits for its tables (v8), which store it for these courses, and
        // "newest" for its column (v11), which numbers these courses in their order.
        _ = try await PostgresCatalog.upsert(seed.courses, withContent: false, numbersNewest: false, in: connection, logger: logger)
        let demo = try await connection.query(
            """
            INSERT INTO learner (name, email, password_hash, role, created_at)
            VALUES (\(seed.demoName), \(seed.demoEmail), \(seed.demoPasswordHash), 'learner', now())
            RETURNING id
            """,
            logger: logger
        ).decode(Int64.self).first { _ in true }
        if let demo { try await seedDemoProgress(learner: demo, in: connection, logger: logger) }
    }

    /// v8, after `schemaV8`: the built-in courses get their lessons' content where they are
    /// still the built-in course.
    static func storeSeededContent(_ seed: PostgresSeed, in connection: PostgresConnection, logger: Logger) async throws {
        for entry in seed.courses {
            guard let lessons = entry.lessons, lessons.contains(where: { $0.content != nil }) else { continue }
            let stored = try await connection.query(
                "SELECT title, lesson_count FROM course WHERE id = \(entry.course.id.rawValue)", logger: logger
            ).decode((String, Int).self).first { _ in true }
            guard let stored, stored.0 == entry.course.title, stored.1 == lessons.count else { continue }
            try await PostgresCatalog.storeLessons([(entry.course.id, lessons)], withContent: true, in: connection, logger: logger)
        }
    }

    /// v9: the demo learner's answers (DemoAccount.answerPlan), as the embedded store's v17,
    /// so the review tab has cards on the first day; only for a
    /// demo account that never answered, in the courses it is enrolled in. The day is the
    /// server's (a learner's own calendar is not known here).
    static func seedDemoAnswers(email: String, in connection: PostgresConnection, logger: Logger) async throws {
        let demo = try await connection.query(
            "SELECT id FROM learner WHERE email_key = \(AccountRules.emailKey(email))", logger: logger
        ).decode(Int64.self).first { _ in true }
        guard let demo else { return }
        let answered = try await connection.query("SELECT count(*) FROM answer WHERE user_id = \(demo)", logger: logger).decode(
            Int.self
        ).first { _ in true }
        guard answered == 0 else { return }
        let today = LearnerDay(Date(), secondsFromGMT: TimeZone.current.secondsFromGMT())
        for plan in DemoAccount.answerPlan(today: today) {
            let course = plan.courseID.rawValue
            let enrolled = try await connection.query(
                "SELECT 1 FROM enrollment WHERE user_id = \(demo) AND course_id = \(course)", logger: logger
            ).decode(Int.self).first { _ in true }
            guard enrolled != nil else { continue }
            for lesson in plan.lessons {
                let questions =
                    try await PostgresLearningRepository.content(plan.courseID, lesson, in: connection, logger: logger)?
                    .questions ?? []
                for (index, question) in questions.enumerated() {
                    let (chosen, card) = plan.answer(to: question, index: index, lesson: lesson)
                    // The SM-2 columns of v8, which v12 maps to FSRS as it maps every card.
                    try await connection.query(
                        """
                        INSERT INTO answer (user_id, course_id, lesson, question, chosen, is_right, answered_day,
                            repetitions, ease_millis, interval_days, due_day)
                        VALUES (\(demo), \(course), \(lesson), \(index), \(chosen.sorted()), \(question.isRight(chosen)),
                            \(plan.answeredOn.number), \(card.repetitions), \(card.easeMillis), \(card.intervalDays), \(card.due.number))
                        ON CONFLICT DO NOTHING
                        """,
                        logger: logger
                    )
                }
            }
        }
    }

    /// The demo learner's starting progress (DemoAccount.progressPlan), as the embedded store's.
    private static func seedDemoProgress(learner: Int64, in connection: PostgresConnection, logger: Logger) async throws {
        for step in DemoAccount.progressPlan(now: Date()) {
            let course = step.courseID.rawValue
            let found = try await connection.query(
                "SELECT lesson_count FROM course WHERE id = \(course)", logger: logger
            ).decode(Int.self).first { _ in true }
            guard let lessons = found else { continue }
            let enrollment = try await connection.query(
                """
                INSERT INTO enrollment (user_id, course_id, course_rank, enrolled_at, status, completed_at)
                SELECT \(learner), id, sort_rank, \(step.enrolledAt), \(step.status.rawValue), \(step.completedAt) FROM course WHERE id = \(course)
                RETURNING id
                """,
                logger: logger
            ).decode(Int64.self).first { _ in true }
            guard let enrollment else { continue }
            for lesson in step.lessons(of: lessons) {
                try await connection.query(
                    "INSERT INTO lesson_progress (enrollment_id, position, done_at) VALUES (\(enrollment), \(lesson.position), \(lesson.doneAt))",
                    logger: logger
                )
            }
            try await connection.query(
                "UPDATE course SET enrolled_count = least(enrolled_count + 1, coalesce(capacity, 10000000)) WHERE id = \(course)",
                logger: logger
            )
        }
    }
}
