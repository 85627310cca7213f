import Foundation
import Logging
import PostgresNIO
import SharedKernel

// MARK: - Undo and the memory picture

extension PostgresLearningRepository {
    public func undoReview(_ ref: QuestionRef, reviewedAt: Date, userID: UserID) async throws(AppError) -> CardSchedule {
        let logger = database.logger
        return try await database.transaction(.saving) { connection in
            // The card's row first, locked: a review or an undo of it in another server waits.
            _ = try await Array(
                collecting: connection.query(
                    """
                    SELECT 1 FROM answer WHERE user_id = \(userID.rawValue) AND course_id = \(ref.courseID.rawValue)
                        AND lesson = \(ref.lesson) AND question = \(ref.question)
                    FOR UPDATE
                    """,
                    logger: logger
                ))
            let rows = try await Array(
                collecting: connection.query(
                    """
                    SELECT id, grade, reviewed_at, \(unescaped: Self.scheduleColumns) FROM review_log
                    WHERE user_id = \(userID.rawValue) AND course_id = \(ref.courseID.rawValue) AND lesson = \(ref.lesson)
                        AND question = \(ref.question)
                    ORDER BY id DESC LIMIT 1
                    """,
                    logger: logger
                ))
            let latest = try rows.first.map { row -> (id: Int, entry: ReviewLogEntry) in
                var cells = CellReader(row)
                let id = try cells.int()
                let text = try cells.string()
                guard let grade = ReviewGrade(rawValue: text) else {
                    throw AppError.storage(.reading, detail: "a review log entry graded \(text.debugDescription)")
                }
                let reviewedAt = Self.date(try cells.int())
                return (id, ReviewLogEntry(ref: ref, grade: grade, reviewedAt: reviewedAt, before: try Self.schedule(&cells)))
            }
            let before = try LearningRules.undo(latest: latest?.entry, ref: ref, reviewedAt: reviewedAt)
            try await connection.query(
                """
                UPDATE answer SET state = \(before.card.state.rawValue), step = \(before.card.step),
                    stability = \(before.card.stability), difficulty = \(before.card.difficulty), due_at = \(Self.seconds(before.card.due)),
                    last_review_at = \(before.card.lastReview.map(Self.seconds)), reviews = \(before.reviews)
                WHERE user_id = \(userID.rawValue) AND course_id = \(ref.courseID.rawValue) AND lesson = \(ref.lesson)
                    AND question = \(ref.question)
                """,
                logger: logger
            )
            try await connection.query("DELETE FROM review_log WHERE id = \(latest?.id)", logger: logger)
            try await PostgresChangeRows.record([.learning(userID, nil)], in: connection, logger: logger)
            return before
        }
    }

    public func memory(userID: UserID, at time: StudyTime) async throws(AppError) -> MemoryPicture {
        let logger = database.logger
        let ends = MemoryPicture.dayEnds(at: time).map(Self.seconds)
        let now = Self.seconds(time.now)
        let since = Self.seconds(MemoryPicture.retentionSince(at: time))
        let todayStart = Self.seconds(MemoryPicture.dayStart(at: time))
        // One snapshot for the forecast and the counts, as SQLite reads them.
        return try await database.transaction(.reading) { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
            var forecast = Array(repeating: 0, count: MemoryPicture.forecastDays)
            // Days counted from the end of today (floor division): overdue cards fall on today.
            let days = try await connection.query(
                """
                SELECT greatest(0, floor((due_at - \(ends[0]))::double precision / 86400)::bigint + 1), count(*) FROM answer
                WHERE user_id = \(userID.rawValue) AND due_at < \(ends[ends.count - 1]) GROUP BY 1
                """,
                logger: logger
            )
            for try await (day, cards) in days.decode((Int, Int).self) {
                guard forecast.indices.contains(day) else {
                    throw AppError.storage(.reading, detail: "a forecast day \(day) out of 0..<\(forecast.count)")
                }
                forecast[day] += cards
            }
            let counts = try await Array(
                collecting: connection.query(
                    """
                    SELECT count(*) FILTER (WHERE reviewed_at >= \(since) AND state = \(unescaped: Self.reviewState)),
                        count(*) FILTER (WHERE reviewed_at >= \(since) AND state = \(unescaped: Self.reviewState) AND grade <> 'again'),
                        count(*) FILTER (WHERE reviewed_at >= \(todayStart))
                    FROM review_log
                    WHERE user_id = \(userID.rawValue) AND reviewed_at >= \(min(since, todayStart)) AND reviewed_at <= \(now)
                    """,
                    logger: logger
                ))
            var cells = counts.first.map(CellReader.init)
            let reviewed = try cells?.int() ?? 0
            let recalled = try cells?.int() ?? 0
            let today = try cells?.int() ?? 0
            return MemoryPicture(forecast: forecast, recalled: recalled, reviewed: reviewed, reviewsToday: today)
        }
    }
}
