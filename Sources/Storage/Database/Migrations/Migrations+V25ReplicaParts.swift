import GRDB

extension Migrations {
    /// `v25-replica-parts`: which of a learner's lists a remote-mode replica holds as the server
    /// gave them, so a replica read offline tells "none" from "never fetched".
    static func v25ReplicaParts(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE replica_part (
                    user_id INTEGER NOT NULL,
                    part TEXT NOT NULL,
                    kept_at INTEGER NOT NULL,
                    PRIMARY KEY (user_id, part)
                ) WITHOUT ROWID;
                """)
    }
}
