import Foundation
import GRDB
import SharedKernel

/// The learner's memory picture and habit, read from their cards and log; the replica reads
/// its own part of them offline by the same statements (`SQLiteReplica+Digest`).
extension SQLiteLearningRepository {
    public func memory(userID: UserID, at time: StudyTime) async throws(AppError) -> MemoryPicture {
        try await database.read { db in try Self.memory(userID: userID, at: time, loggedAfter: nil, in: db) }
    }

    /// The picture from the cards and the log; `loggedAfter` (whole seconds): only grades
    /// logged after it are counted (a replica's, added to what the server last said).
    static func memory(userID: UserID, at time: StudyTime, loggedAfter: Int64?, in db: Database) throws -> MemoryPicture {
        let ends = MemoryPicture.dayEnds(at: time).map { Int64($0.timeIntervalSince1970) }
        let now = Int64(time.now.timeIntervalSince1970)
        let since = Int64(MemoryPicture.retentionSince(at: time).timeIntervalSince1970)
        let todayStart = Int64(MemoryPicture.dayStart(at: time).timeIntervalSince1970)
        var forecast = Array(repeating: 0, count: MemoryPicture.forecastDays)
        // Days counted from the end of today: overdue cards fall on today.
        let days = try Row.fetchAll(
            db,
            sql: """
                SELECT max(0, (due_at - :todayEnd) / 86400 + (due_at >= :todayEnd)) AS day, count(*) AS cards FROM answer
                WHERE user_id = :user AND due_at < :lastEnd GROUP BY 1
                """,
            arguments: ["user": userID.rawValue, "todayEnd": ends[0], "lastEnd": ends[ends.count - 1]])
        for row in days {
            let reader = RowReader(row: row, what: "forecast")
            let day = try reader.int("day", in: 0...(MemoryPicture.forecastDays - 1))
            forecast[day] += try reader.int("cards")
        }
        let counts = try Row.fetchOne(
            db,
            sql: """
                SELECT count(*) FILTER (WHERE reviewed_at >= :since AND state = 2) AS reviewed,
                    count(*) FILTER (WHERE reviewed_at >= :since AND state = 2 AND grade <> 'again') AS recalled,
                    count(*) FILTER (WHERE reviewed_at >= :todayStart) AS today
                FROM review_log WHERE user_id = :user AND reviewed_at >= min(:since, :todayStart) AND reviewed_at <= :now
                    AND reviewed_at > :after
                """,
            arguments: [
                "user": userID.rawValue, "since": since, "todayStart": todayStart, "now": now, "after": loggedAfter ?? Int64.min,
            ])
        let count = { (name: String) in (try? counts.map { try RowReader(row: $0, what: "memory").int(RowColumn(name)) }) ?? 0 }
        return MemoryPicture(forecast: forecast, recalled: count("recalled"), reviewed: count("reviewed"), reviewsToday: count("today"))
    }

    public func habit(userID: UserID, on day: LearnerDay, secondsFromGMT: Int) async throws(AppError) -> LearningHabit {
        try await database.read { db in
            let since = day.number - LearningRules.streakWindow
            // Int? and compactMap: a date or day another program stored as garbage reads as NULL,
            // which would trap as an Int.
            let lessonDays = try Int?.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT (CAST(strftime('%s', lesson_progress.done_at) AS INTEGER) + ?) / 86400 AS day
                    FROM lesson_progress JOIN enrollment ON enrollment.id = lesson_progress.enrollment_id
                    WHERE enrollment.user_id = ? AND lesson_progress.done_at >= datetime(?, 'unixepoch')
                    """,
                // The bound in SQLite's words, not a `Date`: GRDB writes one with a DateFormatter,
                // whose first use (ICU's) cost every start a millisecond.
                arguments: [secondsFromGMT, userID.rawValue, since * 86_400 - 86_400])
            let reviewDays = try Int?.fetchAll(
                db, sql: "SELECT CAST(day AS INTEGER) FROM review_day WHERE user_id = ? AND day >= ?", arguments: [userID.rawValue, since])
            let answerDays = try Int?.fetchAll(
                db, sql: "SELECT DISTINCT CAST(answered_day AS INTEGER) FROM answer WHERE user_id = ? AND answered_day >= ?",
                arguments: [userID.rawValue, since])
            let active = Set((lessonDays + reviewDays + answerDays).compactMap { $0.map(LearnerDay.init(number:)) })
            return LearningHabit(
                streakDays: LearningHabit.streak(activeDays: active, today: day),
                dueCount: try Self.dueCount(userID: userID, by: day, secondsFromGMT: secondsFromGMT, in: db),
                activeToday: active.contains(day))
        }
    }

    /// The learner's cards due by the end of `day`.
    static func dueCount(userID: UserID, by day: LearnerDay, secondsFromGMT: Int, in db: Database) throws -> Int {
        let dayEnd = Int64(StudyTime.end(of: day, secondsFromGMT: secondsFromGMT).timeIntervalSince1970)
        return try Int.fetchOne(
            db, sql: "SELECT count(*) FROM answer WHERE user_id = ? AND due_at < ?", arguments: [userID.rawValue, dayEnd])
            ?? 0
    }
}
