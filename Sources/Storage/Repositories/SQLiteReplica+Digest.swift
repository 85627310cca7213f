import Foundation
import GRDB
import SharedKernel

/// The learner's memory picture and streak offline. The replica holds their cards (the
/// forecast and what is due come from them) but not the server's review log: it keeps what
/// the server last said of the counts and the streak, and adds the learning done here since,
/// each day and grade once.
extension SQLiteReplica {
    /// The server's picture, asked at `time`.
    public func keep(_ picture: MemoryPicture, at time: StudyTime, userID: UserID) async throws(AppError) {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO replica_memory (user_id, asked_at, day, recalled, reviewed, reviews_today)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    userID.rawValue, Self.second(time.now), time.day.number, picture.recalled, picture.reviewed, picture.reviewsToday,
                ])
        }
    }

    /// The server's habit on `day`.
    public func keep(_ habit: LearningHabit, on day: LearnerDay, userID: UserID) async throws(AppError) {
        try await database.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO replica_habit (user_id, day, streak_days, active_today) VALUES (?, ?, ?, ?)",
                arguments: [userID.rawValue, day.number, habit.streakDays, habit.activeToday])
        }
    }

    /// The picture at `time`: the forecast from the cards here, the counts the server last
    /// gave with the grades logged here after them (a grade given offline, or one mirrored
    /// since). Nil when the server never gave one. The counts' 30 days are the server's as
    /// of when it was asked: a grade that left the window since is still counted.
    public func memory(userID: UserID, at time: StudyTime) async throws(AppError) -> MemoryPicture? {
        try await database.read { db in
            guard
                let kept = try Row.fetchOne(
                    db, sql: "SELECT asked_at, day, recalled, reviewed, reviews_today FROM replica_memory WHERE user_id = ?",
                    arguments: [userID.rawValue])
            else { return nil }
            let reader = RowReader(row: kept, what: "kept memory picture")
            let askedAt = try reader.int64("asked_at")
            var picture = try SQLiteLearningRepository.memory(userID: userID, at: time, loggedAfter: askedAt, in: db)
            picture.recalled += try reader.int("recalled")
            picture.reviewed += try reader.int("reviewed")
            if try reader.int("day") == time.day.number { picture.reviewsToday += try reader.int("reviews_today") }
            return picture
        }
    }

    /// The habit on `day`: the streak's days the server last gave, with the days of learning
    /// here (grades given here, answers checked here, and what waits in the outbox), and the
    /// cards due here. Nil when the server never gave one.
    public func habit(userID: UserID, on day: LearnerDay, secondsFromGMT: Int) async throws(AppError) -> LearningHabit? {
        try await database.read { db in
            guard
                let kept = try Row.fetchOne(
                    db, sql: "SELECT day, streak_days, active_today FROM replica_habit WHERE user_id = ?", arguments: [userID.rawValue])
            else { return nil }
            let reader = RowReader(row: kept, what: "kept habit")
            let server = LearningHabit.days(
                ofStreak: try reader.int("streak_days"), endingOn: LearnerDay(number: try reader.int("day")),
                activeToday: try reader.int("active_today") != 0)
            let active = server.union(
                try Self.learningDays(
                    userID: userID, since: day.adding(days: -LearningRules.streakWindow), secondsFromGMT: secondsFromGMT, in: db))
            return LearningHabit(
                streakDays: LearningHabit.streak(activeDays: active, today: day),
                dueCount: try SQLiteLearningRepository.dueCount(userID: userID, by: day, secondsFromGMT: secondsFromGMT, in: db),
                activeToday: active.contains(day))
        }
    }

    /// Days the learner learnt on here: a grade logged here (offline, or mirrored), an answer
    /// the server checked for this terminal (one read from the server has no time here), and
    /// a lesson done, an answer or a grade in the outbox. The lessons' marks the replica read
    /// from the server carry no time of their own, so they are not counted: the server's
    /// streak has them.
    private static func learningDays(userID: UserID, since: LearnerDay, secondsFromGMT: Int, in db: Database) throws -> Set<LearnerDay> {
        let days = try Int?.fetchAll(
            db,
            sql: """
                SELECT CAST(day AS INTEGER) FROM review_day WHERE user_id = :user AND day >= :since
                UNION SELECT CAST(answered_day AS INTEGER) FROM answer
                    WHERE user_id = :user AND answered_at IS NOT NULL AND answered_day >= :since
                UNION SELECT (CAST(substr(json_extract(operation, '$.time'), 1, 13) AS INTEGER) / 1000
                        + coalesce(json_extract(operation, '$.utcOffset'), :offset)) / 86400
                    FROM outbox WHERE user_id = :user AND (json_extract(operation, '$.kind') IN ('answer', 'review')
                        OR (json_extract(operation, '$.kind') = 'lesson' AND json_extract(operation, '$.done')))
                """,
            arguments: ["user": userID.rawValue, "since": since.number, "offset": secondsFromGMT])
        return Set(days.compactMap { $0 }.filter { $0 >= since.number }.map(LearnerDay.init(number:)))
    }

    private static func second(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }
}
