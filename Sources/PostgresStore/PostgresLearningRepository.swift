import Foundation
import Logging
import Platform
import PostgresNIO
import SharedKernel

/// Lessons' content, answers and the review deck in PostgreSQL, as the embedded store keeps
/// them: each answer row carries the SM-2 schedule of the card it started; `review_day` notes
/// the days a learner reviewed. `LearningRules` decide inside each write's transaction, under
/// row locks, so two servers of one database keep the first answer and review a card once a day.
public struct PostgresLearningRepository: LearningRepository {
    private let database: PostgresDatabase
    /// When an answer is given: the course's last activity (`Enrollment.lastActiveAt`).
    public let now: @Sendable () -> Date

    public init(database: PostgresDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    public func lessonContent(courseID: CourseID, lesson: Int) async throws(AppError) -> LessonContent {
        let logger = database.logger
        return try await database.read { connection in
            let count = try await connection.query(
                "SELECT lesson_count FROM course WHERE id = \(courseID.rawValue)", logger: logger
            ).decode(Int.self).first { _ in true }
            guard let count else { throw AppError.courseNotFound(courseID) }
            guard (1...max(1, count)).contains(lesson) else { throw AppError.noSuchLesson(courseID, lesson) }
            guard let content = try await Self.content(courseID, lesson, in: connection, logger: logger) else {
                throw AppError.storage(
                    .reading, detail: "the content of lesson \(lesson) of \(courseID.rawValue.debugDescription) is damaged")
            }
            return content
        }
    }

    public func answers(userID: UserID, courseID: CourseID) async throws(AppError) -> [Answer] {
        let logger = database.logger
        return try await database.read { connection in
            let rows = try await connection.query(
                """
                SELECT lesson, question, chosen, is_right FROM answer
                WHERE user_id = \(userID.rawValue) AND course_id = \(courseID.rawValue) ORDER BY lesson, question
                """,
                logger: logger
            )
            var found: [(QuestionRef, Set<Int>, Bool)] = []
            for try await (lesson, question, chosen, isRight) in rows.decode((Int, Int, [Int], Bool).self) {
                guard let choices = Self.choices(chosen) else { continue }  // a damaged row is left out
                found.append((QuestionRef(courseID: courseID, lesson: lesson, question: question), choices, isRight))
            }
            // Each answer with what it reveals: its question's right choices and explanation now.
            var questions: [Int: [Question]] = [:]
            var answers: [Answer] = []
            for (ref, chosen, isRight) in found {
                if questions[ref.lesson] == nil {
                    questions[ref.lesson] = try await Self.content(courseID, ref.lesson, in: connection, logger: logger)?.questions ?? []
                }
                let question = questions[ref.lesson].flatMap { $0.indices.contains(ref.question) ? $0[ref.question] : nil }
                answers.append(
                    Answer(
                        ref: ref, chosen: chosen, isRight: isRight, correct: question?.correct ?? [],
                        explanation: question?.explanation ?? ""))
            }
            return answers
        }
    }

    /// The learner's enrollment row is locked first (`FOR UPDATE`): two answers to one course
    /// take turns, so the second sees the first, which is kept.
    public func answer(_ chosen: Set<Int>, to ref: QuestionRef, userID: UserID, on day: LearnerDay) async throws(AppError) -> Answer {
        let logger = database.logger
        return try await database.transaction(.saving) { connection in
            let status = try await connection.query(
                """
                SELECT status FROM enrollment WHERE user_id = \(userID.rawValue) AND course_id = \(ref.courseID.rawValue) FOR UPDATE
                """,
                logger: logger
            ).decode(String.self).first { _ in true }
            let questions = try await Self.content(ref.courseID, ref.lesson, in: connection, logger: logger)?.questions ?? []
            let existing = try await connection.query(
                """
                SELECT chosen, is_right FROM answer WHERE user_id = \(userID.rawValue) AND course_id = \(ref.courseID.rawValue)
                    AND lesson = \(ref.lesson) AND question = \(ref.question)
                """,
                logger: logger
            ).decode(([Int], Bool).self).first { _ in true }.flatMap { row in
                Self.choices(row.0).map { chosen in
                    let question = questions.indices.contains(ref.question) ? questions[ref.question] : nil
                    return Answer(
                        ref: ref, chosen: chosen, isRight: row.1, correct: question?.correct ?? [], explanation: question?.explanation ?? ""
                    )
                }
            }
            let decided = try LearningRules.answer(
                chosen, to: ref, question: questions.indices.contains(ref.question) ? questions[ref.question] : nil,
                holdsPlace: status.map { $0 != EnrollmentStatus.dropped.rawValue } ?? false, existing: existing, day: day)
            if let card = decided.newCard {
                try await Self.insertAnswer(decided.answer, card: card, answeredOn: day, userID: userID, in: connection, logger: logger)
                try await connection.query(
                    "UPDATE enrollment SET active_at = \(now()) WHERE user_id = \(userID.rawValue) AND course_id = \(ref.courseID.rawValue)",
                    logger: logger)
                try await PostgresChangeRows.record([.learning(userID, ref.courseID)], in: connection, logger: logger)
            }
            return decided.answer
        }
    }

    public func reviewDeck(userID: UserID, on day: LearnerDay, limit: Int) async throws(AppError) -> ReviewDeck {
        let logger = database.logger
        return try await database.read { connection in
            let count =
                try await connection.query(
                    "SELECT count(*) FROM answer WHERE user_id = \(userID.rawValue) AND due_day <= \(day.number)", logger: logger
                ).decode(Int.self).first { _ in true } ?? 0
            let rows = try await connection.query(
                """
                SELECT answer.course_id, answer.lesson, answer.question, repetitions, ease_millis, interval_days, due_day,
                    course.title, lesson.title, lesson_content.questions
                FROM answer
                JOIN course ON course.id = answer.course_id
                JOIN lesson ON lesson.course_id = answer.course_id AND lesson.position = answer.lesson
                JOIN lesson_content ON lesson_content.course_id = answer.course_id AND lesson_content.position = answer.lesson
                WHERE answer.user_id = \(userID.rawValue) AND answer.due_day <= \(day.number)
                ORDER BY answer.due_day, course.sort_key, answer.course_id, answer.lesson, answer.question
                LIMIT \(max(0, limit))
                """,
                logger: logger
            )
            var cards: [ReviewCard] = []
            for try await row in rows {
                let (course, lesson, index, repetitions, ease, interval, due, courseTitle, lessonTitle, questionsText) = try row.decode(
                    (String, Int, Int, Int, Int, Int, Int, String, String, String?).self)
                // A question the course no longer has (re-imported shorter) is skipped.
                guard let questions = QuestionsJSON.decode(questionsText), questions.indices.contains(index) else { continue }
                cards.append(
                    ReviewCard(
                        ref: QuestionRef(courseID: CourseID(course), lesson: lesson, question: index), courseTitle: courseTitle,
                        lessonTitle: lessonTitle, question: questions[index],
                        schedule: CardSchedule(
                            repetitions: repetitions, easeMillis: ease, intervalDays: interval, due: LearnerDay(number: due))))
            }
            return ReviewDeck(cards: cards, dueCount: count)
        }
    }

    /// The card's row is locked (`FOR UPDATE`): a second review of it, from any server, waits
    /// and then finds it no longer due.
    public func review(_ ref: QuestionRef, grade: ReviewGrade, userID: UserID, on day: LearnerDay) async throws(AppError) -> CardSchedule {
        let logger = database.logger
        return try await database.transaction(.saving) { connection in
            let card = try await connection.query(
                """
                SELECT repetitions, ease_millis, interval_days, due_day FROM answer
                WHERE user_id = \(userID.rawValue) AND course_id = \(ref.courseID.rawValue) AND lesson = \(ref.lesson)
                    AND question = \(ref.question)
                FOR UPDATE
                """,
                logger: logger
            ).decode((Int, Int, Int, Int).self).first { _ in true }.map {
                CardSchedule(repetitions: $0.0, easeMillis: $0.1, intervalDays: $0.2, due: LearnerDay(number: $0.3))
            }
            guard let next = try LearningRules.review(card, grade: grade, ref: ref, day: day) else {
                return card ?? CardSchedule.new(on: day)
            }
            try await connection.query(
                """
                UPDATE answer SET repetitions = \(next.repetitions), ease_millis = \(next.easeMillis),
                    interval_days = \(next.intervalDays), due_day = \(next.due.number)
                WHERE user_id = \(userID.rawValue) AND course_id = \(ref.courseID.rawValue) AND lesson = \(ref.lesson)
                    AND question = \(ref.question)
                """,
                logger: logger
            )
            try await connection.query(
                "INSERT INTO review_day (user_id, day) VALUES (\(userID.rawValue), \(day.number)) ON CONFLICT DO NOTHING", logger: logger)
            try await PostgresChangeRows.record([.learning(userID, nil)], in: connection, logger: logger)
            return next
        }
    }

    public func habit(userID: UserID, on day: LearnerDay, secondsFromGMT: Int) async throws(AppError) -> LearningHabit {
        let logger = database.logger
        return try await database.read { connection in
            let since = day.number - LearningRules.streakWindow
            let earliest = Date(timeIntervalSince1970: Double(since * 86_400 - 86_400))
            var days: Set<LearnerDay> = []
            let lessonDays = try await connection.query(
                """
                SELECT DISTINCT floor((extract(epoch FROM lesson_progress.done_at) + \(secondsFromGMT)) / 86400)::bigint
                FROM lesson_progress JOIN enrollment ON enrollment.id = lesson_progress.enrollment_id
                WHERE enrollment.user_id = \(userID.rawValue) AND lesson_progress.done_at >= \(earliest)
                """,
                logger: logger
            )
            for try await number in lessonDays.decode(Int.self) { days.insert(LearnerDay(number: number)) }
            let otherDays = try await connection.query(
                """
                SELECT day FROM review_day WHERE user_id = \(userID.rawValue) AND day >= \(since)
                UNION SELECT answered_day FROM answer WHERE user_id = \(userID.rawValue) AND answered_day >= \(since)
                """,
                logger: logger
            )
            for try await number in otherDays.decode(Int.self) { days.insert(LearnerDay(number: number)) }
            let due =
                try await connection.query(
                    "SELECT count(*) FROM answer WHERE user_id = \(userID.rawValue) AND due_day <= \(day.number)", logger: logger
                ).decode(Int.self).first { _ in true } ?? 0
            return LearningHabit(streakDays: LearningHabit.streak(activeDays: days, today: day), dueCount: due)
        }
    }

    // MARK: - Rows

    /// A lesson's content (empty when it has no row: a title-only lesson, or none at all);
    /// `nil` when the stored row is damaged or out of SPEC's limits.
    static func content(_ courseID: CourseID, _ lesson: Int, in connection: PostgresConnection, logger: Logger) async throws
        -> LessonContent?
    {
        let row = try await connection.query(
            "SELECT body, questions FROM lesson_content WHERE course_id = \(courseID.rawValue) AND position = \(lesson)", logger: logger
        ).decode((String?, String?).self).first { _ in true }
        guard let row else { return .empty }
        guard let questions = QuestionsJSON.decode(row.1), (row.0?.utf8.count ?? 0) <= ContentLimits.bodyBytes else { return nil }
        return LessonContent(body: row.0, questions: questions)
    }

    static func insertAnswer(
        _ answer: Answer, card: CardSchedule, answeredOn day: LearnerDay, userID: UserID, in connection: PostgresConnection, logger: Logger
    ) async throws {
        let ref = answer.ref
        try await connection.query(
            """
            INSERT INTO answer (user_id, course_id, lesson, question, chosen, is_right, answered_day,
                repetitions, ease_millis, interval_days, due_day)
            VALUES (\(userID.rawValue), \(ref.courseID.rawValue), \(ref.lesson), \(ref.question), \(answer.chosen.sorted()),
                \(answer.isRight), \(day.number), \(card.repetitions), \(card.easeMillis), \(card.intervalDays), \(card.due.number))
            ON CONFLICT DO NOTHING
            """,
            logger: logger
        )
    }

    /// The choices of a stored answer, if they are a question's (2 to 6 choices).
    private static func choices(_ numbers: [Int]) -> Set<Int>? {
        guard !numbers.isEmpty, numbers.allSatisfy({ (0..<ContentLimits.choices.upperBound).contains($0) }) else { return nil }
        return Set(numbers)
    }
}
