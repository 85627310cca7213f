import Foundation
import GRDB
import Platform
import SharedKernel

/// Lessons' content, answers and the review deck in SQLite: each answer row carries the FSRS
/// schedule of the card it started; `review_log` keeps each grade with the card before it,
/// and `review_day` the days a learner reviewed.
public struct SQLiteLearningRepository: LearningRepository {
    let database: AppDatabase
    /// When an answer is given: the course's last activity (`Enrollment.lastActiveAt`).
    public let now: @Sendable () -> Date

    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    public func lessonContent(courseID: CourseID, lesson: Int) async throws(AppError) -> LessonContent {
        try await database.read { db in
            guard let count = try Int.fetchOne(db, sql: "SELECT lesson_count FROM course WHERE id = ?", arguments: [courseID.rawValue])
            else { throw AppError.courseNotFound(courseID) }
            guard (1...max(1, count)).contains(lesson) else { throw AppError.noSuchLesson(courseID, lesson) }
            return try Self.content(courseID, lesson, in: db)
        }
    }

    public func answers(userID: UserID, courseID: CourseID) async throws(AppError) -> [Answer] {
        try await database.read { db in
            var questions: [Int: [Question]] = [:]
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT answer.lesson, answer.question, chosen, is_right, lesson_content.questions FROM answer
                    LEFT JOIN lesson_content ON lesson_content.course_id = answer.course_id AND lesson_content.position = answer.lesson
                    WHERE user_id = ? AND answer.course_id = ? ORDER BY answer.lesson, answer.question
                    """, arguments: [userID.rawValue, courseID.rawValue]
            ).compactMap { row in
                // A damaged row (another program's) is left out, not fatal to the others.
                let reader = RowReader(row: row, what: "answer")
                guard let chosen = Self.choices(try? reader.optionalString("chosen")),
                    let lesson = try? reader.int("lesson", in: CourseLimits.lessons),
                    let index = try? reader.int("question", in: 0...ContentLimits.questions.upperBound),
                    let isRight = try? reader.bool("is_right")
                else { return nil }
                if questions[lesson] == nil { questions[lesson] = QuestionsJSON.decode(try? reader.optionalString("questions")) ?? [] }
                // A question the course no longer has (re-imported shorter) keeps its verdict, without the rest.
                let question = questions[lesson].flatMap { $0.indices.contains(index) ? $0[index] : nil }
                return Answer(
                    ref: QuestionRef(courseID: courseID, lesson: lesson, question: index), chosen: chosen, isRight: isRight,
                    correct: question?.correct ?? [], explanation: question?.explanation ?? "")
            }
        }
    }

    public func cards(userID: UserID, courseID: CourseID) async throws(AppError) -> [CourseCard] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT lesson, question, \(Self.scheduleColumns) FROM answer
                    WHERE user_id = ? AND course_id = ? ORDER BY lesson, question
                    """, arguments: [userID.rawValue, courseID.rawValue]
            ).compactMap { row in
                // A damaged row (another program's) is left out, not fatal to the others.
                let reader = RowReader(row: row, what: "review card")
                guard let lesson = try? reader.int("lesson", in: CourseLimits.lessons),
                    let question = try? reader.int("question", in: 0...ContentLimits.questions.upperBound),
                    let schedule = try? Self.schedule(reader)
                else { return nil }
                return CourseCard(ref: QuestionRef(courseID: courseID, lesson: lesson, question: question), schedule: schedule)
            }
        }
    }

    public func answer(_ chosen: Set<Int>, to ref: QuestionRef, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> Answer
    {
        try await database.write { db in
            let status = try String.fetchOne(
                db, sql: "SELECT status FROM enrollment WHERE user_id = ? AND course_id = ?",
                arguments: [userID.rawValue, ref.courseID.rawValue])
            let questions = try Self.content(ref.courseID, ref.lesson, in: db, ifThere: true).questions
            let existing = try Row.fetchOne(
                db, sql: "SELECT chosen, is_right FROM answer WHERE user_id = ? AND course_id = ? AND lesson = ? AND question = ?",
                arguments: [userID.rawValue, ref.courseID.rawValue, ref.lesson, ref.question]
            ).flatMap { row -> Answer? in
                // A damaged answer (another program's) is as good as none: the new one takes its place.
                let reader = RowReader(row: row, what: "answer")
                guard let chosen = Self.choices(try? reader.optionalString("chosen")), let isRight = try? reader.bool("is_right") else {
                    return nil
                }
                let question = questions.indices.contains(ref.question) ? questions[ref.question] : nil
                return Answer(
                    ref: ref, chosen: chosen, isRight: isRight, correct: question?.correct ?? [], explanation: question?.explanation ?? "")
            }
            let decided = try LearningRules.answer(
                chosen, to: ref, question: questions.indices.contains(ref.question) ? questions[ref.question] : nil,
                holdsPlace: status.map { $0 != EnrollmentStatus.dropped.rawValue } ?? false, existing: existing, userID: userID,
                time: time, settings: settings)
            if let card = decided.newCard {
                try Self.insert(decided.answer, card: card, at: time, userID: userID.rawValue, in: db)
                try db.execute(
                    sql: "UPDATE enrollment SET active_at = ? WHERE user_id = ? AND course_id = ?",
                    arguments: [now(), userID.rawValue, ref.courseID.rawValue])
                try ChangeRows.record(.learning(userID, ref.courseID), in: db)
            }
            return decided.answer
        }
    }

    public func reviewDeck(userID: UserID, at time: StudyTime, limit: Int, settings: ReviewSettings) async throws(AppError)
        -> ReviewDeck
    {
        let (now, dayEnd) = (Int64(time.now.timeIntervalSince1970), Int64(time.dayEnd.timeIntervalSince1970))
        return try await database.read { db in
            // Due: in review before the day ends, in steps once their time has come. Every
            // card counted is due before the day ends: one range of `answer_by_due`.
            let due = "answer.due_at < :dayEnd AND (answer.state = 2 OR answer.due_at <= :now)"
            let arguments: StatementArguments = ["user": userID.rawValue, "now": now, "dayEnd": dayEnd, "limit": max(0, limit)]
            let counts = try Row.fetchOne(
                db,
                sql: """
                    SELECT count(*) FILTER (WHERE reviews = 0 AND (state = 2 OR due_at <= :now)) AS new,
                        count(*) FILTER (WHERE reviews > 0 AND state <> 2 AND due_at <= :now) AS learning,
                        count(*) FILTER (WHERE reviews > 0 AND state = 2) AS due,
                        min(due_at) FILTER (WHERE state <> 2 AND due_at > :now) AS coming_back
                    FROM answer WHERE user_id = :user AND due_at < :dayEnd
                    """, arguments: arguments)
            let comingBack = try counts.flatMap { try RowReader(row: $0, what: "deck").optionalInt("coming_back") }
            // The first `limit` from the index and the course's order, then their schedules and
            // their lessons' text: only those cards are read from the tables.
            let rows = try Row.fetchAll(
                db,
                sql: """
                    WITH picked AS (
                        SELECT answer.course_id, answer.lesson, answer.question, answer.due_at, course.sort_key
                        FROM answer JOIN course ON course.id = answer.course_id
                        WHERE answer.user_id = :user AND \(due)
                            -- A lesson no longer there (re-imported shorter) is skipped before the limit.
                            AND EXISTS (SELECT 1 FROM lesson_content
                                WHERE lesson_content.course_id = answer.course_id AND lesson_content.position = answer.lesson)
                        ORDER BY answer.due_at, course.sort_key, answer.course_id, answer.lesson, answer.question
                        LIMIT :limit)
                    SELECT picked.course_id, picked.lesson, picked.question, \(Self.scheduleColumns),
                        course.title AS course_title, lesson.title AS lesson_title, lesson_content.questions
                    FROM picked
                    JOIN answer ON answer.user_id = :user AND answer.course_id = picked.course_id AND answer.lesson = picked.lesson
                        AND answer.question = picked.question
                    JOIN course ON course.id = picked.course_id
                    JOIN lesson ON lesson.course_id = picked.course_id AND lesson.position = picked.lesson
                    JOIN lesson_content ON lesson_content.course_id = picked.course_id AND lesson_content.position = picked.lesson
                    ORDER BY picked.due_at, picked.sort_key, picked.course_id, picked.lesson, picked.question
                    """, arguments: arguments)
            // A lesson's questions are decoded (and checked) once, however many of its cards come.
            var lessons: [QuestionRef: [Question]?] = [:]
            let cards = rows.compactMap { row -> ReviewCard? in
                let reader = RowReader(row: row, what: "review card")
                // A question the course no longer has (re-imported shorter), or a damaged row, is skipped.
                guard let index = try? reader.int("question", in: 0...ContentLimits.questions.upperBound),
                    let courseID = try? reader.string("course_id"), let lesson = try? reader.int("lesson", in: CourseLimits.lessons)
                else { return nil }
                let key = QuestionRef(courseID: CourseID(courseID), lesson: lesson, question: 0)
                if lessons[key] == nil { lessons[key] = .some(QuestionsJSON.decode(try? reader.optionalString("questions"))) }
                guard let questions = lessons[key] ?? nil, questions.indices.contains(index),
                    let courseTitle = try? reader.string("course_title"), let lessonTitle = try? reader.string("lesson_title"),
                    let schedule = try? Self.schedule(reader)
                else { return nil }
                return ReviewCard(
                    ref: QuestionRef(courseID: CourseID(courseID), lesson: lesson, question: index), courseTitle: courseTitle,
                    lessonTitle: lessonTitle, question: questions[index], schedule: schedule,
                    intervals: settings.intervals(for: schedule.card, at: time.now))
            }
            let count = { (name: String) in (try? counts.map { try RowReader(row: $0, what: "deck").int(RowColumn(name)) }) ?? 0 }
            return ReviewDeck(
                cards: cards, newCount: count("new"), learningCount: count("learning"), dueCount: count("due"),
                comingBack: comingBack.map { Date(timeIntervalSince1970: Double($0)) })
        }
    }

    public func review(_ ref: QuestionRef, grade: ReviewGrade, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> CardSchedule
    {
        try await database.write { db in
            let schedule = try Row.fetchOne(
                db,
                sql: "SELECT \(Self.scheduleColumns) FROM answer WHERE user_id = ? AND course_id = ? AND lesson = ? AND question = ?",
                arguments: [userID.rawValue, ref.courseID.rawValue, ref.lesson, ref.question]
            ).map { try Self.schedule(RowReader(row: $0, what: "review card")) }
            let (next, log) = try LearningRules.review(schedule, grade: grade, ref: ref, userID: userID, time: time, settings: settings)
            try db.execute(
                sql: """
                    UPDATE answer SET state = ?, step = ?, stability = ?, difficulty = ?, due_at = ?, last_review_at = ?, reviews = ?
                    WHERE user_id = ? AND course_id = ? AND lesson = ? AND question = ?
                    """,
                arguments: StatementArguments(Self.values(of: next))
                    + [userID.rawValue, ref.courseID.rawValue, ref.lesson, ref.question])
            try db.execute(
                sql: """
                    INSERT INTO review_log (user_id, course_id, lesson, question, grade, reviewed_at,
                        state, step, stability, difficulty, due_at, last_review_at, reviews)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    userID.rawValue, ref.courseID.rawValue, ref.lesson, ref.question, log.grade.rawValue,
                    Int64(log.reviewedAt.timeIntervalSince1970),
                ] + StatementArguments(Self.values(of: log.before)))
            try db.execute(
                sql: "INSERT OR IGNORE INTO review_day (user_id, day) VALUES (?, ?)", arguments: [userID.rawValue, time.day.number])
            try ChangeRows.record(.learning(userID, nil), in: db)
            return next
        }
    }

    public func undoReview(_ ref: QuestionRef, reviewedAt: Date, userID: UserID) async throws(AppError) -> CardSchedule {
        try await database.write { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT id, grade, reviewed_at, \(Self.logScheduleColumns) FROM review_log
                    WHERE user_id = ? AND course_id = ? AND lesson = ? AND question = ? ORDER BY id DESC LIMIT 1
                    """, arguments: [userID.rawValue, ref.courseID.rawValue, ref.lesson, ref.question])
            let latest = try row.map { row -> (id: Int64, entry: ReviewLogEntry) in
                let reader = RowReader(row: row, what: "review log entry")
                guard let grade = ReviewGrade(rawValue: try reader.string("grade")) else {
                    throw DamagedRow(description: "review log entry: its grade is not one of the four")
                }
                let entry = ReviewLogEntry(
                    ref: ref, grade: grade, reviewedAt: Date(timeIntervalSince1970: Double(try reader.int64("reviewed_at"))),
                    before: try Self.schedule(reader))
                return (try reader.int64("id"), entry)
            }
            let before = try LearningRules.undo(latest: latest?.entry, ref: ref, reviewedAt: reviewedAt)
            try db.execute(
                sql: """
                    UPDATE answer SET state = ?, step = ?, stability = ?, difficulty = ?, due_at = ?, last_review_at = ?, reviews = ?
                    WHERE user_id = ? AND course_id = ? AND lesson = ? AND question = ?
                    """,
                arguments: StatementArguments(Self.values(of: before)) + [userID.rawValue, ref.courseID.rawValue, ref.lesson, ref.question])
            try db.execute(sql: "DELETE FROM review_log WHERE id = ?", arguments: [latest?.id])
            try ChangeRows.record(.learning(userID, nil), in: db)
            return before
        }
    }

    // MARK: - Rows

    /// Stores a first answer with the card it starts.
    /// Stores a first answer with the card it starts (or, `INSERT OR REPLACE`, an earlier
    /// answer in place of a later one: `MergeRules.answerReplaces`).
    static func insert(_ answer: Answer, card: CardSchedule, at time: StudyTime, userID: Int64, in db: Database) throws {
        try insert(answer, card: card, day: time.day.number, at: time.now, userID: userID, in: db)
    }

    /// The same, on `day`, at `answeredAt` (nil: a time not known, which no answer replaces).
    static func insert(_ answer: Answer, card: CardSchedule, day: Int, at answeredAt: Date?, userID: Int64, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO answer (user_id, course_id, lesson, question, chosen, is_right, answered_day, answered_at,
                    state, step, stability, difficulty, due_at, last_review_at, reviews)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                userID, answer.ref.courseID.rawValue, answer.ref.lesson, answer.ref.question, text(of: answer.chosen), answer.isRight,
                day, answeredAt.map { Int64($0.timeIntervalSince1970) },
            ] + StatementArguments(values(of: card)))
    }

    /// The columns of the card before a grade, in a `review_log` row.
    static let logScheduleColumns = "state, step, stability, difficulty, due_at, last_review_at, reviews"

    /// The columns of a card's schedule, in the order `values(of:)` gives them.
    static let scheduleColumns =
        "answer.state, answer.step, answer.stability, answer.difficulty, answer.due_at, answer.last_review_at, answer.reviews"

    static func values(of schedule: CardSchedule) -> [(any DatabaseValueConvertible)?] {
        [
            schedule.card.state.rawValue, schedule.card.step, schedule.card.stability, schedule.card.difficulty, schedule.dueSeconds,
            schedule.lastReviewSeconds, schedule.reviews,
        ]
    }

    /// A lesson's content; with `ifThere`, a lesson that is not stored reads as empty instead
    /// of an error (the rules then say the question is not there).
    static func content(_ courseID: CourseID, _ lesson: Int, in db: Database, ifThere: Bool = false) throws -> LessonContent {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT body, questions FROM lesson_content WHERE course_id = ? AND position = ?"),
                arguments: [courseID.rawValue, lesson])
        else { return .empty }
        let reader = RowReader(row: row, what: "lesson \(lesson) of \(courseID.rawValue.debugDescription)")
        guard let questions = QuestionsJSON.decode(try? reader.optionalString("questions")) else {
            if ifThere { return .empty }
            throw DamagedRow(description: "questions of lesson \(lesson) of \(courseID.rawValue.debugDescription)")
        }
        let body = try reader.optionalString("body")
        guard (body?.utf8.count ?? 0) <= ContentLimits.bodyBytes else {
            throw DamagedRow(description: "body of lesson \(lesson) of \(courseID.rawValue.debugDescription) is past 256 KiB")
        }
        return LessonContent(body: body, questions: questions)
    }

    /// A card's schedule, if its values make one (`CardSchedule.checked`).
    static func schedule(_ reader: RowReader) throws -> CardSchedule {
        guard
            let schedule = CardSchedule.checked(
                state: try reader.int("state"), step: try reader.optionalInt("step"), stability: try reader.optionalDouble("stability"),
                difficulty: try reader.optionalDouble("difficulty"), dueSeconds: try reader.int64("due_at"),
                lastReviewSeconds: try reader.optionalInt("last_review_at").map(Int64.init), reviews: try reader.int("reviews"))
        else { throw DamagedRow(description: "review card: its schedule is out of range") }
        return schedule
    }

    /// `0,2`: the choices of an answer as stored.
    static func text(of chosen: Set<Int>) -> String {
        chosen.sorted().map(String.init).joined(separator: ",")
    }

    static func choices(_ text: String?) -> Set<Int>? {
        guard let text else { return nil }
        let numbers = text.split(separator: ",").compactMap { Int($0) }
        guard !numbers.isEmpty, numbers.count == text.split(separator: ",").count, numbers.allSatisfy({ (0..<6).contains($0) })
        else { return nil }
        return Set(numbers)
    }
}
