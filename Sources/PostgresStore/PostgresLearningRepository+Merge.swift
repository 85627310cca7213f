import Foundation
import Logging
import PostgresNIO
import SharedKernel

/// Answers from queued operations, merged by `MergeRules` and `LearningRules.replay` inside
/// an operation's transaction (the learner's row locked). Grades and undos are merged in
/// memory over the batch's cards (`BatchCards`).
extension PostgresLearningRepository {
    /// An answer given at `time`: kept if it is the first, or earlier than the one kept (the
    /// card then starts from it, its log replayed on top); otherwise `.superseded`.
    static func mergeAnswer(
        _ chosen: Set<Int>, to ref: QuestionRef, userID: UserID, at time: StudyTime, settings: ReviewSettings,
        in connection: PostgresConnection, logger: Logger
    ) async throws -> OperationOutcome {
        let status = try await connection.query(
            "SELECT status FROM enrollment WHERE user_id = \(userID.rawValue) AND course_id = \(ref.courseID.rawValue)", logger: logger
        ).decode(String.self).first { _ in true }
        let questions = try await content(ref.courseID, ref.lesson, in: connection, logger: logger)?.questions ?? []
        let question = questions.indices.contains(ref.question) ? questions[ref.question] : nil
        let kept = try await connection.query(
            """
            SELECT answered_at FROM answer WHERE user_id = \(userID.rawValue) AND course_id = \(ref.courseID.rawValue)
                AND lesson = \(ref.lesson) AND question = \(ref.question)
            """, logger: logger
        ).decode(Int?.self).first { _ in true }
        let replaces = kept.map { MergeRules.answerReplaces(time.now, stored: $0.map(date)) } ?? true
        // The rules check the answer either way: a bad one is refused, whatever is kept.
        let decided = try LearningRules.answer(
            chosen, to: ref, question: question, holdsPlace: status.map { $0 != EnrollmentStatus.dropped.rawValue } ?? false,
            existing: nil, userID: userID, time: time, settings: settings)
        guard replaces, let card = decided.newCard else { return .superseded }
        let log = try await cardAndLog(ref, userID: userID, in: connection, logger: logger).log
        let replayed = LearningRules.replay(
            log.map { ReviewGrading($0.entry.grade, at: $0.entry.reviewedAt) }, from: card, ref: ref, userID: userID, settings: settings)
        var write = LearningWrite()
        write.rewriteLog(log.map(\.id), with: replayed.entries, userID: userID)
        write.insertAnswer(decided.answer, card: replayed.schedule, at: time, userID: userID, replacing: kept != nil)
        write.activeAt(time.now, atLeast: true, courseID: ref.courseID, userID: userID)
        try await write.run(in: connection, logger: logger)
        try await PostgresChangeRows.record([.learning(userID, ref.courseID)], in: connection, logger: logger)
        return .applied
    }

    // MARK: - Rows

    /// The card (nil without an answer) and its whole log in time order (then as written), in
    /// one statement: the card's row first.
    private static func cardAndLog(_ ref: QuestionRef, userID: UserID, in connection: PostgresConnection, logger: Logger)
        async throws -> (card: CardSchedule?, log: [(id: Int, entry: ReviewLogEntry)])
    {
        let rows = try await Array(
            collecting: connection.query(
                """
                SELECT 0 AS part, 0::bigint AS id, NULL::text AS grade, 0::bigint AS reviewed_at, \(unescaped: scheduleColumns)
                FROM answer WHERE user_id = \(userID.rawValue) AND course_id = \(ref.courseID.rawValue) AND lesson = \(ref.lesson)
                    AND question = \(ref.question)
                UNION ALL
                SELECT 1, id, grade, reviewed_at, \(unescaped: scheduleColumns) FROM review_log
                WHERE user_id = \(userID.rawValue) AND course_id = \(ref.courseID.rawValue) AND lesson = \(ref.lesson)
                    AND question = \(ref.question)
                ORDER BY part, reviewed_at, id
                """, logger: logger))
        var card: CardSchedule?
        var log: [(id: Int, entry: ReviewLogEntry)] = []
        for row in rows {
            var cells = CellReader(row)
            let part = try cells.int()
            let id = try cells.int()
            guard part == 1 else {
                _ = try cells.optionalString()
                _ = try cells.int()
                card = try schedule(&cells)
                continue
            }
            log.append((id, try logEntry(of: ref, &cells)))
        }
        return (card, log)
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
}
