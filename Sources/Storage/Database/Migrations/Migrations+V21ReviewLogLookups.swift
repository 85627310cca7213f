import GRDB

extension Migrations {
    /// An undo looks up a card's last grade, and the memory picture a learner's grades since a
    /// time: each by its own index, not by reading the learner's whole log. The deck counts and
    /// picks its cards from `answer_by_due` alone: with the state and reviews in it (and the
    /// key, as every index of a table without rowid has), 10,000 due cards are never looked
    /// up one by one in the table.
    static func v21ReviewLogLookups(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX review_log_by_card ON review_log(user_id, course_id, lesson, question, id);
                CREATE INDEX review_log_by_time ON review_log(user_id, reviewed_at);
                DROP INDEX answer_by_due;
                CREATE INDEX answer_by_due ON answer(user_id, due_at, state, reviews);
                """)
    }
}
