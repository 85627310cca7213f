import Foundation
import GRDB
import SharedKernel

extension Migrations {
    /// `v20-fsrs`: cards scheduled by FSRS-6 instead of SM-2. Each answer's card gets its FSRS
    /// state, memory and due instant (whole seconds), mapped from its SM-2 numbers as Anki maps
    /// a card without a log (`CardSchedule.fromSM2`): due at noon UTC of the day SM-2 had it
    /// due, so no card loses its due date. `review_log` keeps each grade from now on with the
    /// card before it (what an undo restores, and the true retention is counted from).
    static func v20FSRS(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE answer ADD COLUMN state INTEGER NOT NULL DEFAULT 1;
                ALTER TABLE answer ADD COLUMN step INTEGER;
                ALTER TABLE answer ADD COLUMN stability REAL;
                ALTER TABLE answer ADD COLUMN difficulty REAL;
                ALTER TABLE answer ADD COLUMN due_at INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE answer ADD COLUMN last_review_at INTEGER;
                ALTER TABLE answer ADD COLUMN reviews INTEGER NOT NULL DEFAULT 0;
                """)
        let rows = try Row.fetchAll(
            db, sql: "SELECT user_id, course_id, lesson, question, repetitions, ease_millis, interval_days, due_day FROM answer")
        let update = try db.makeStatement(
            sql: """
                UPDATE answer SET state = ?, step = ?, stability = ?, difficulty = ?, due_at = ?, last_review_at = ?, reviews = ?
                WHERE user_id = ? AND course_id = ? AND lesson = ? AND question = ?
                """)
        for row in rows {
            let reader = RowReader(row: row, what: "answer")
            // Numbers another program stored out of SM-2's ranges: the card starts again, due today by UTC.
            let schedule = CardSchedule.fromSM2(
                repetitions: (try? reader.int("repetitions", in: 0...1_000_000)) ?? 0,
                easeMillis: (try? reader.int("ease_millis", in: 1_300...1_000_000)) ?? 2_500,
                intervalDays: (try? reader.int("interval_days", in: 0...36_500)) ?? 0,
                dueDay: LearnerDay(number: (try? reader.int("due_day", in: LearnerDay.earliest.number...LearnerDay.latest.number)) ?? 0))
            try update.execute(
                arguments: StatementArguments(SQLiteLearningRepository.values(of: schedule))
                    + [row["user_id"], row["course_id"], row["lesson"], row["question"]])
        }
        try db.execute(
            sql: """
                DROP INDEX answer_by_due;
                ALTER TABLE answer DROP COLUMN repetitions;
                ALTER TABLE answer DROP COLUMN ease_millis;
                ALTER TABLE answer DROP COLUMN interval_days;
                ALTER TABLE answer DROP COLUMN due_day;
                CREATE INDEX answer_by_due ON answer(user_id, due_at);
                CREATE TABLE review_log (
                    id INTEGER PRIMARY KEY,
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    course_id TEXT NOT NULL,
                    lesson INTEGER NOT NULL,
                    question INTEGER NOT NULL,
                    grade TEXT NOT NULL,
                    reviewed_at INTEGER NOT NULL,
                    state INTEGER NOT NULL,
                    step INTEGER,
                    stability REAL,
                    difficulty REAL,
                    due_at INTEGER NOT NULL,
                    last_review_at INTEGER,
                    reviews INTEGER NOT NULL
                );
                CREATE INDEX review_log_by_learner ON review_log(user_id, id);
                """)
    }
}
