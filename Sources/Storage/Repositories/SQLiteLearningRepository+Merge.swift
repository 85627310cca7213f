import Foundation
import GRDB
import SharedKernel

/// Answers and grades from queued operations, merged by `MergeRules` and
/// `LearningRules.replay` inside an operation's transaction.
extension SQLiteLearningRepository {
    /// An answer given at `time`: kept if it is the first, or earlier than the one kept (the
    /// card then starts from it, its log replayed on top); otherwise `.superseded`.
    static func mergeAnswer(
        _ chosen: Set<Int>, to ref: QuestionRef, userID: UserID, at time: StudyTime, settings: ReviewSettings, in db: Database
    ) throws -> OperationOutcome {
        let status = try String.fetchOne(
            db.cachedStatement(sql: "SELECT status FROM enrollment WHERE user_id = ? AND course_id = ?"),
            arguments: [userID.rawValue, ref.courseID.rawValue])
        let questions = try content(ref.courseID, ref.lesson, in: db, ifThere: true).questions
        let question = questions.indices.contains(ref.question) ? questions[ref.question] : nil
        let kept = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT answered_at FROM answer WHERE user_id = ? AND course_id = ? AND lesson = ? AND question = ?"),
            arguments: [userID.rawValue, ref.courseID.rawValue, ref.lesson, ref.question]
        ).map { row in (try? RowReader(row: row, what: "answer").optionalInt("answered_at")).flatMap { $0 } }
        let replaces = kept.map { MergeRules.answerReplaces(time.now, stored: $0.map { Date(timeIntervalSince1970: Double($0)) }) } ?? true
        // The rules check the answer either way: a bad one is refused, whatever is kept.
        let decided = try LearningRules.answer(
            chosen, to: ref, question: question, holdsPlace: status.map { $0 != EnrollmentStatus.dropped.rawValue } ?? false,
            existing: nil, userID: userID, time: time, settings: settings)
        guard replaces, let card = decided.newCard else { return .superseded }
        let log = try logEntries(of: ref, userID: userID, from: nil, in: db)
        let replayed = LearningRules.replay(
            log.map { ReviewGrading($0.entry.grade, at: $0.entry.reviewedAt) }, from: card, ref: ref, userID: userID, settings: settings)
        try rewrite(log.map(\.id), with: replayed.entries, userID: userID, in: db)
        try insert(decided.answer, card: replayed.schedule, at: time, userID: userID.rawValue, in: db)
        try db.cachedStatement(
            sql: "UPDATE enrollment SET active_at = max(coalesce(active_at, enrolled_at), ?) WHERE user_id = ? AND course_id = ?"
        ).execute(arguments: [time.now, userID.rawValue, ref.courseID.rawValue])
        try ChangeRows.record(.learning(userID, ref.courseID), in: db)
        return .applied
    }

    /// A grade given at `grading.reviewedAt`, put in its place in the card's log; false for one
    /// there already (`LearningRules.isRepeat`).
    static func mergeReview(
        _ grading: ReviewGrading, of ref: QuestionRef, userID: UserID, secondsFromGMT: Int, settings: ReviewSettings, in db: Database
    ) throws -> Bool {
        guard let current = try card(ref, userID: userID, in: db) else { throw AppError.noSuchLesson(ref.courseID, ref.lesson) }
        let from = try logEntries(of: ref, userID: userID, from: grading.reviewedAt, in: db)
        guard !LearningRules.isRepeat(grading, in: from.map(\.entry)) else { return false }
        let later = from.filter { $0.entry.reviewedAt > grading.reviewedAt }
        let merged = try LearningRules.insert(
            grading, later: later.map(\.entry), current: current, ref: ref, userID: userID, settings: settings)
        try rewrite(later.map(\.id), with: merged.entries, userID: userID, in: db)
        try setCard(ref, merged.schedule, userID: userID, in: db)
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO review_day (user_id, day) VALUES (?, ?)").execute(arguments: [
            userID.rawValue, LearnerDay(grading.reviewedAt, secondsFromGMT: secondsFromGMT).number,
        ])
        try ChangeRows.record(.learning(userID, nil), in: db)
        return true
    }

    /// The grade given at `reviewedAt` taken out of the card's log, the grades after it replayed.
    static func mergeUndo(_ ref: QuestionRef, reviewedAt: Date, userID: UserID, settings: ReviewSettings, in db: Database) throws {
        let second = Date(timeIntervalSince1970: reviewedAt.timeIntervalSince1970.rounded(.down))
        let from = try logEntries(of: ref, userID: userID, from: second, in: db)
        guard let taken = from.first, taken.entry.reviewedAt == second else { throw AppError.nothingToUndo(ref) }
        let merged = LearningRules.remove(taken.entry, later: from.dropFirst().map(\.entry), ref: ref, userID: userID, settings: settings)
        try rewrite(from.map(\.id), with: merged.entries, userID: userID, in: db)
        try setCard(ref, merged.schedule, userID: userID, in: db)
        try ChangeRows.record(.learning(userID, nil), in: db)
    }

    // MARK: - Rows

    private static func card(_ ref: QuestionRef, userID: UserID, in db: Database) throws -> CardSchedule? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT \(scheduleColumns) FROM answer WHERE user_id = ? AND course_id = ? AND lesson = ? AND question = ?"),
            arguments: [userID.rawValue, ref.courseID.rawValue, ref.lesson, ref.question]
        ).map { try schedule(RowReader(row: $0, what: "review card")) }
    }

    private static func setCard(_ ref: QuestionRef, _ schedule: CardSchedule, userID: UserID, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE answer SET state = ?, step = ?, stability = ?, difficulty = ?, due_at = ?, last_review_at = ?, reviews = ?
                WHERE user_id = ? AND course_id = ? AND lesson = ? AND question = ?
                """
        ).execute(arguments: StatementArguments(values(of: schedule)) + [userID.rawValue, ref.courseID.rawValue, ref.lesson, ref.question])
    }

    /// The card's log in time order (then as written), from `from`'s second on (all of it for nil).
    private static func logEntries(of ref: QuestionRef, userID: UserID, from: Date?, in db: Database) throws
        -> [(id: Int64, entry: ReviewLogEntry)]
    {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT id, grade, reviewed_at, \(logScheduleColumns) FROM review_log
                    WHERE user_id = ? AND course_id = ? AND lesson = ? AND question = ? AND reviewed_at >= ?
                    ORDER BY reviewed_at, id
                    """),
            arguments: [
                userID.rawValue, ref.courseID.rawValue, ref.lesson, ref.question, from.map { Int64($0.timeIntervalSince1970) } ?? Int64.min,
            ]
        ).map { row in
            let reader = RowReader(row: row, what: "review log entry")
            guard let grade = ReviewGrade(rawValue: try reader.string("grade")) else {
                throw DamagedRow(description: "review log entry: its grade is not one of the four")
            }
            let entry = ReviewLogEntry(
                ref: ref, grade: grade, reviewedAt: Date(timeIntervalSince1970: Double(try reader.int64("reviewed_at"))),
                before: try schedule(reader))
            return (try reader.int64("id"), entry)
        }
    }

    /// Replaces the log rows `ids` with `entries`, written in their order (ids grow with it).
    private static func rewrite(_ ids: [Int64], with entries: [ReviewLogEntry], userID: UserID, in db: Database) throws {
        for id in ids { try db.cachedStatement(sql: "DELETE FROM review_log WHERE id = ?").execute(arguments: [id]) }
        for entry in entries {
            try db.cachedStatement(
                sql: """
                    INSERT INTO review_log (user_id, course_id, lesson, question, grade, reviewed_at,
                        state, step, stability, difficulty, due_at, last_review_at, reviews)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(
                arguments: [
                    userID.rawValue, entry.ref.courseID.rawValue, entry.ref.lesson, entry.ref.question, entry.grade.rawValue,
                    Int64(entry.reviewedAt.timeIntervalSince1970),
                ] + StatementArguments(values(of: entry.before)))
        }
    }
}
