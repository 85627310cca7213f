import GRDB

extension Migrations {
    /// An undo looks up a card's last grade, and the memory picture a learner's grades since a
    /// time: each by its own index, not by reading the learner's whole log.
    static func v21ReviewLogLookups(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX review_log_by_card ON review_log(user_id, course_id, lesson, question, id);
                CREATE INDEX review_log_by_time ON review_log(user_id, reviewed_at);
                """)
    }
}
