import Foundation
import Logging
import Platform
import PostgresNIO
import SharedKernel

/// Lessons' content, answers and the review deck in PostgreSQL, as the embedded store keeps
/// them: each answer row carries the FSRS schedule of the card it started (its due instant in
/// whole seconds); `review_log` keeps every grade with the card as it was, `review_day` the
/// days a learner reviewed. `LearningRules` decide inside each write's transaction, under row
/// locks, so two servers of one database keep the first answer and review a due card once.
public struct PostgresLearningRepository: LearningRepository {
    let database: PostgresDatabase
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

    public func cards(userID: UserID, courseID: CourseID) async throws(AppError) -> [CourseCard] {
        let logger = database.logger
        return try await database.read { connection in
            let rows = try await connection.query(
                """
                SELECT lesson, question, \(unescaped: Self.scheduleColumns) FROM answer
                WHERE user_id = \(userID.rawValue) AND course_id = \(courseID.rawValue) ORDER BY lesson, question
                """,
                logger: logger
            )
            var cards: [CourseCard] = []
            for try await row in rows {
                var cells = CellReader(row)
                let ref = QuestionRef(courseID: courseID, lesson: try cells.int(), question: try cells.int())
                cards.append(CourseCard(ref: ref, schedule: try Self.schedule(&cells)))
            }
            return cards
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

    /// The learner's row is locked first, as a queued batch locks it (a batch's merged answer
    /// read before this one committed would be dropped, not kept as the earlier), then the
    /// enrollment's (`FOR UPDATE`): two answers to one course take turns, so the second sees
    /// the first, which is kept.
    public func answer(_ chosen: Set<Int>, to ref: QuestionRef, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> Answer
    {
        let logger = database.logger
        return try await database.transaction(.saving, learner: userID) { connection in
            let status = try await connection.query(
                """
                SELECT status FROM enrollment WHERE user_id = \(userID.rawValue) AND course_id = \(ref.courseID.rawValue) FOR UPDATE
                """,
                logger: logger
            ).decode(String.self).first { _ in true }
            let questions = try await Self.content(ref.courseID, ref.lesson, in: connection, logger: logger)?.questions ?? []
            let question = questions.indices.contains(ref.question) ? questions[ref.question] : nil
            let existing = try await connection.query(
                """
                SELECT chosen, is_right FROM answer WHERE user_id = \(userID.rawValue) AND course_id = \(ref.courseID.rawValue)
                    AND lesson = \(ref.lesson) AND question = \(ref.question)
                """,
                logger: logger
            ).decode(([Int], Bool).self).first { _ in true }.flatMap { row in
                Self.choices(row.0).map { chosen in
                    Answer(
                        ref: ref, chosen: chosen, isRight: row.1, correct: question?.correct ?? [], explanation: question?.explanation ?? ""
                    )
                }
            }
            let decided = try LearningRules.answer(
                chosen, to: ref, question: question, holdsPlace: status.map { $0 != EnrollmentStatus.dropped.rawValue } ?? false,
                existing: existing, userID: userID, time: time, settings: settings)
            if let card = decided.newCard {
                var write = LearningWrite()
                write.insertAnswer(decided.answer, card: card, at: time, userID: userID)
                write.activeAt(now(), courseID: ref.courseID, userID: userID)
                try await write.run(in: connection, logger: logger)
                try await PostgresChangeRows.record([.learning(userID, ref.courseID)], in: connection, logger: logger)
            }
            return decided.answer
        }
    }

    /// Two statements on the index (user_id, due_at): the counts and when a card in its steps
    /// comes back, then the first cards. Every card to review now, and every one coming back
    /// today, is due before the day ends; those in their steps only once their time has come.
    public func reviewDeck(userID: UserID, at time: StudyTime, limit: Int, settings: ReviewSettings) async throws(AppError)
        -> ReviewDeck
    {
        let logger = database.logger
        let now = Self.seconds(time.now)
        let dayEnd = Self.seconds(time.dayEnd)
        return try await database.read { connection in
            let counts = try await Array(
                collecting: connection.prepared(
                    """
                    SELECT count(*) FILTER (WHERE reviews = 0 AND (state = \(unescaped: Self.reviewState) OR due_at <= \(now))),
                        count(*) FILTER (WHERE reviews > 0 AND state <> \(unescaped: Self.reviewState) AND due_at <= \(now)),
                        count(*) FILTER (WHERE reviews > 0 AND state = \(unescaped: Self.reviewState)),
                        min(due_at) FILTER (WHERE state <> \(unescaped: Self.reviewState) AND due_at > \(now))
                    FROM answer WHERE user_id = \(userID.rawValue) AND due_at < \(dayEnd)
                    """,
                    logger: logger)
            ).first
            let rows = try await connection.prepared(
                """
                SELECT answer.course_id, answer.lesson, answer.question, \(unescaped: Self.scheduleColumns(of: "answer")),
                    course.title, lesson.title, lesson_content.questions
                FROM answer
                JOIN course ON course.id = answer.course_id
                JOIN lesson ON lesson.course_id = answer.course_id AND lesson.position = answer.lesson
                JOIN lesson_content ON lesson_content.course_id = answer.course_id AND lesson_content.position = answer.lesson
                WHERE answer.user_id = \(userID.rawValue) AND answer.due_at < \(dayEnd)
                    AND (answer.state = \(unescaped: Self.reviewState) OR answer.due_at <= \(now))
                ORDER BY answer.due_at, course.sort_key, answer.course_id, answer.lesson, answer.question
                LIMIT \(max(0, limit))
                """,
                logger: logger
            )
            var cards: [ReviewCard] = []
            // A lesson's questions are decoded (and checked) once, however many of its cards come.
            var lessons: [QuestionRef: [Question]?] = [:]
            for try await row in rows {
                var cells = CellReader(row)
                let ref = QuestionRef(courseID: CourseID(try cells.string()), lesson: try cells.int(), question: try cells.int())
                let schedule = try Self.schedule(&cells)
                let (courseTitle, lessonTitle, questionsText) = (try cells.string(), try cells.string(), try cells.optionalString())
                let key = QuestionRef(courseID: ref.courseID, lesson: ref.lesson, question: 0)
                if lessons[key] == nil { lessons[key] = .some(QuestionsJSON.decode(questionsText)) }
                // A question the course no longer has (re-imported shorter) is skipped.
                guard let questions = lessons[key] ?? nil, questions.indices.contains(ref.question) else { continue }
                cards.append(
                    ReviewCard(
                        ref: ref, courseTitle: courseTitle, lessonTitle: lessonTitle, question: questions[ref.question], schedule: schedule,
                        intervals: settings.intervals(for: schedule.card, at: time.now)))
            }
            guard let counts else { return ReviewDeck(cards: cards, dueCount: 0) }
            var count = CellReader(counts)
            let (new, learning, due) = (try count.int(), try count.int(), try count.int())
            let comingBack = try count.optionalInt().map(Self.date)
            return ReviewDeck(cards: cards, newCount: new, learningCount: learning, dueCount: due, comingBack: comingBack)
        }
    }

    /// The card's row is locked (`FOR UPDATE`): a second review of it, from any server, waits
    /// and then finds it no longer due. The review's log entry keeps the card as it was.
    public func review(_ ref: QuestionRef, grade: ReviewGrade, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> CardSchedule
    {
        let logger = database.logger
        return try await database.transaction(.saving) { connection in
            let rows = try await connection.prepared(
                """
                SELECT \(unescaped: Self.scheduleColumns) FROM answer
                WHERE user_id = \(userID.rawValue) AND course_id = \(ref.courseID.rawValue) AND lesson = \(ref.lesson)
                    AND question = \(ref.question)
                FOR UPDATE
                """,
                logger: logger
            )
            let card = try await Array(collecting: rows).first.map { row in
                var cells = CellReader(row)
                return try Self.schedule(&cells)
            }
            // Not due (reviewed meanwhile, elsewhere) or no card: the rules throw, nothing is written.
            let decided = try LearningRules.review(card, grade: grade, ref: ref, userID: userID, time: time, settings: settings)
            let next = decided.schedule
            var write = LearningWrite()
            write.setCard(ref, next, userID: userID)
            write.rewriteLog([], with: [decided.log], userID: userID)
            write.reviewDay(time.day.number, userID: userID)
            try await write.run(in: connection, logger: logger)
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
            // Every card due by the end of the day, in any state: due on it at some time of it.
            let dayEnd = Self.seconds(StudyTime.end(of: day, secondsFromGMT: secondsFromGMT))
            let counted = try await Array(
                collecting: connection.prepared(
                    "SELECT count(*) FROM answer WHERE user_id = \(userID.rawValue) AND due_at < \(dayEnd)", logger: logger)
            ).first
            var cells = counted.map(CellReader.init)
            let due = try cells?.int() ?? 0
            return LearningHabit(
                streakDays: LearningHabit.streak(activeDays: days, today: day), dueCount: due, activeToday: days.contains(day))
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
        guard let questions = questions(row.1, bodyBytes: row.0?.utf8.count ?? 0) else { return nil }
        return LessonContent(body: row.0, questions: questions)
    }

    /// A stored lesson's questions, if its content is within SPEC's limits (`nil` when damaged).
    static func questions(_ json: String?, bodyBytes: Int) -> [Question]? {
        guard let questions = QuestionsJSON.decode(json), bodyBytes <= ContentLimits.bodyBytes else { return nil }
        return questions
    }

    /// A card's columns in `answer` (and its `before` in `review_log`), as `schedule` reads them.
    static let scheduleColumns = "state, step, stability, difficulty, due_at, last_review_at, reviews"

    /// `scheduleColumns` of `table`, in a statement that joins others.
    static func scheduleColumns(of table: String) -> String {
        scheduleColumns.split(separator: ", ").map { "\(table).\($0)" }.joined(separator: ", ")
    }

    /// `FSRSCardState.review` in SQL: a card due on a day, not at a time of it.
    static let reviewState = String(FSRSCardState.review.rawValue)

    /// The schedule in the next cells (`scheduleColumns`, in order).
    static func schedule(_ cells: inout CellReader) throws -> CardSchedule {
        let number = try cells.int()
        guard let state = FSRSCardState(rawValue: number) else {
            throw AppError.storage(.reading, detail: "a card in state \(number), which FSRS does not have")
        }
        let card = FSRSCard(
            state: state, step: try cells.optionalInt(), stability: try cells.optionalDouble(), difficulty: try cells.optionalDouble(),
            due: date(try cells.int()), lastReview: try cells.optionalInt().map(date))
        return CardSchedule(card: card, reviews: try cells.int())
    }

    /// A log entry in the next cells: its grade, its time, then `scheduleColumns`.
    static func logEntry(of ref: QuestionRef, _ cells: inout CellReader) throws -> ReviewLogEntry {
        let text = try cells.string()
        guard let grade = ReviewGrade(rawValue: text) else {
            throw AppError.storage(.reading, detail: "a review log entry graded \(text.debugDescription)")
        }
        let reviewedAt = date(try cells.int())
        return ReviewLogEntry(ref: ref, grade: grade, reviewedAt: reviewedAt, before: try schedule(&cells))
    }

    /// An instant as the store keeps it: whole seconds since 1970 (`StudyTime` has no others).
    static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    static func date(_ seconds: Int) -> Date {
        Date(timeIntervalSince1970: Double(seconds))
    }

    /// The choices of a stored answer, if they are a question's (2 to 6 choices).
    static func choices(_ numbers: [Int]) -> Set<Int>? {
        guard !numbers.isEmpty, numbers.allSatisfy({ (0..<ContentLimits.choices.upperBound).contains($0) }) else { return nil }
        return Set(numbers)
    }
}
