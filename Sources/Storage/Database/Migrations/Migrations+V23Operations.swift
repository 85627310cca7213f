import GRDB

extension Migrations {
    /// `v23-operations`: what the terminals' queued writes need to merge (SPEC, remote mode
    /// offline): each applied operation's id and outcome (a repeat answers the first again),
    /// the time of each latest-wins item (a favourite, a lesson mark, the name), and when
    /// each answer was given (the earliest is kept). Answers from before have no time: they
    /// came first.
    static func v23Operations(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE applied_operation (
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    id TEXT NOT NULL,
                    fingerprint TEXT NOT NULL,
                    code TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    applied_at INTEGER NOT NULL,
                    PRIMARY KEY (user_id, id)
                ) WITHOUT ROWID;
                CREATE TABLE merge_time (
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    item TEXT NOT NULL,
                    time TEXT NOT NULL,
                    PRIMARY KEY (user_id, item)
                ) WITHOUT ROWID;
                ALTER TABLE answer ADD COLUMN answered_at INTEGER;
                """)
    }
}
