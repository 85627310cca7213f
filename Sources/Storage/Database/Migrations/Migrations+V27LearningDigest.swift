import GRDB

extension Migrations {
    /// `v27-learning-digest`: what a remote-mode replica last heard of the learner's memory
    /// picture and streak. The replica holds the cards but not the server's review log, so
    /// offline it adds the learning done here since to these (`SQLiteReplica+Digest`).
    static func v27LearningDigest(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE replica_memory (
                    user_id INTEGER PRIMARY KEY,
                    asked_at INTEGER NOT NULL,
                    day INTEGER NOT NULL,
                    recalled INTEGER NOT NULL,
                    reviewed INTEGER NOT NULL,
                    reviews_today INTEGER NOT NULL
                );
                CREATE TABLE replica_habit (
                    user_id INTEGER PRIMARY KEY,
                    day INTEGER NOT NULL,
                    streak_days INTEGER NOT NULL,
                    active_today INTEGER NOT NULL
                );
                """)
    }
}
