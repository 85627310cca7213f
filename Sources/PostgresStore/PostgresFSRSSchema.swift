import Logging
import PostgresNIO
import SharedKernel

/// v12 (`PostgresDatabase.migrations`): the review deck moves from SM-2 to FSRS.
extension PostgresDatabase {
    /// v12: cards scheduled by FSRS. Each answer's SM-2 schedule becomes the card
    /// `CardSchedule.fromSM2` maps it to (as the embedded store maps its own): worked out here
    /// once per distinct schedule, and written in one pass; the new columns are NOT NULL after
    /// it, so the migration fails rather than leave a card without its due instant. The SM-2
    /// columns go, with their index. `review_log` keeps every review, in the order written,
    /// with its grade and the card as it was before (what an undo restores).
    static func fsrsCards(in connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            ALTER TABLE answer ADD COLUMN state smallint, ADD COLUMN step integer, ADD COLUMN stability double precision,
                ADD COLUMN difficulty double precision, ADD COLUMN due_at bigint, ADD COLUMN last_review_at bigint,
                ADD COLUMN reviews integer
            """,
            logger: logger
        )
        var schedules: [SM2Schedule] = []
        let rows = try await connection.query(
            "SELECT DISTINCT repetitions, ease_millis, interval_days, due_day FROM answer", logger: logger)
        for try await (repetitions, easeMillis, intervalDays, dueDay) in rows.decode((Int, Int, Int, Int).self) {
            schedules.append(SM2Schedule(repetitions: repetitions, easeMillis: easeMillis, intervalDays: intervalDays, dueDay: dueDay))
        }
        try await connection.query(
            """
            CREATE TEMPORARY TABLE sm2_schedule (
                repetitions integer NOT NULL, ease_millis integer NOT NULL, interval_days integer NOT NULL, due_day integer NOT NULL,
                state smallint NOT NULL, step integer, stability double precision, difficulty double precision, due_at bigint NOT NULL,
                last_review_at bigint, reviews integer NOT NULL,
                PRIMARY KEY (repetitions, ease_millis, interval_days, due_day)
            )
            """,
            logger: logger
        )
        for batch in stride(from: 0, to: schedules.count, by: SM2Schedule.batch) {
            try await SM2Schedule.insertMapped(
                schedules[batch..<min(batch + SM2Schedule.batch, schedules.count)], in: connection, logger: logger)
        }
        for statement in [
            """
            UPDATE answer SET state = mapped.state, step = mapped.step, stability = mapped.stability, difficulty = mapped.difficulty,
                due_at = mapped.due_at, last_review_at = mapped.last_review_at, reviews = mapped.reviews
            FROM sm2_schedule AS mapped
            WHERE answer.repetitions = mapped.repetitions AND answer.ease_millis = mapped.ease_millis
                AND answer.interval_days = mapped.interval_days AND answer.due_day = mapped.due_day
            """,
            "DROP TABLE sm2_schedule",
            """
            ALTER TABLE answer ALTER COLUMN state SET NOT NULL, ALTER COLUMN due_at SET NOT NULL, ALTER COLUMN reviews SET NOT NULL,
                ADD CONSTRAINT answer_state CHECK (state IN (1, 2, 3)), ADD CONSTRAINT answer_reviews CHECK (reviews >= 0)
            """,
            "DROP INDEX answer_by_due",
            "ALTER TABLE answer DROP COLUMN repetitions, DROP COLUMN ease_millis, DROP COLUMN interval_days, DROP COLUMN due_day",
            "CREATE INDEX answer_by_due_at ON answer (user_id, due_at)",
            """
            CREATE TABLE review_log (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                user_id bigint NOT NULL REFERENCES learner (id) ON DELETE CASCADE,
                course_id text COLLATE "C" NOT NULL,
                lesson integer NOT NULL,
                question integer NOT NULL,
                grade text NOT NULL CHECK (grade IN ('again', 'hard', 'good', 'easy')),
                reviewed_at bigint NOT NULL,
                -- The card before the review, as `answer` keeps it.
                state smallint NOT NULL CHECK (state IN (1, 2, 3)),
                step integer,
                stability double precision,
                difficulty double precision,
                due_at bigint NOT NULL,
                last_review_at bigint,
                reviews integer NOT NULL
            )
            """,
            "CREATE INDEX review_log_by_learner ON review_log (user_id, id)",
        ] {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
    }
}

/// One distinct SM-2 schedule of v12's `answer` rows, and the FSRS card it becomes.
private struct SM2Schedule {
    /// Schedules per statement: 11 values each, within PostgreSQL's 65,535 parameters.
    static let batch = 1_000

    let repetitions: Int
    let easeMillis: Int
    let intervalDays: Int
    let dueDay: Int

    var mapped: CardSchedule {
        CardSchedule.fromSM2(
            repetitions: repetitions, easeMillis: easeMillis, intervalDays: intervalDays, dueDay: LearnerDay(number: dueDay))
    }

    /// `schedules` with their cards, into v12's `sm2_schedule`, in one statement. Each value
    /// is cast: a NULL bound has no type of its own.
    static func insertMapped(_ schedules: ArraySlice<SM2Schedule>, in connection: PostgresConnection, logger: Logger) async throws {
        guard !schedules.isEmpty else { return }
        var sql = PostgresQuery.StringInterpolation(literalCapacity: 120 * schedules.count, interpolationCount: 11 * schedules.count)
        sql.appendLiteral("INSERT INTO sm2_schedule VALUES ")
        for (index, old) in schedules.enumerated() {
            let new = old.mapped
            sql.appendLiteral(index == 0 ? "(" : ", (")
            sql.appendInterpolation(old.repetitions)
            sql.appendLiteral("::integer, ")
            sql.appendInterpolation(old.easeMillis)
            sql.appendLiteral("::integer, ")
            sql.appendInterpolation(old.intervalDays)
            sql.appendLiteral("::integer, ")
            sql.appendInterpolation(old.dueDay)
            sql.appendLiteral("::integer, ")
            sql.appendInterpolation(new.card.state.rawValue)
            sql.appendLiteral("::smallint, ")
            sql.appendInterpolation(new.card.step)
            sql.appendLiteral("::integer, ")
            sql.appendInterpolation(new.card.stability)
            sql.appendLiteral("::double precision, ")
            sql.appendInterpolation(new.card.difficulty)
            sql.appendLiteral("::double precision, ")
            sql.appendInterpolation(PostgresLearningRepository.seconds(new.card.due))
            sql.appendLiteral("::bigint, ")
            sql.appendInterpolation(new.card.lastReview.map(PostgresLearningRepository.seconds))
            sql.appendLiteral("::bigint, ")
            sql.appendInterpolation(new.reviews)
            sql.appendLiteral("::integer)")
        }
        try await connection.query(PostgresQuery(stringInterpolation: sql), logger: logger)
    }
}
