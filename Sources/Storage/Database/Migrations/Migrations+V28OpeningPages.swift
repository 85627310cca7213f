import GRDB

extension Migrations {
    /// `v28-opening-pages`: the catalog page a remote-mode terminal opened on, as the server
    /// gave it (its courses in the replica's `course` table), so the next start draws its
    /// first frame from disk while the server is asked (`SQLiteReplica+Pages`).
    static func v28OpeningPages(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE replica_page (
                    learner INTEGER NOT NULL,
                    query TEXT NOT NULL,
                    sort TEXT NOT NULL,
                    total INTEGER NOT NULL,
                    total_is_lower_bound INTEGER NOT NULL,
                    rows TEXT NOT NULL,
                    kept_at INTEGER NOT NULL,
                    PRIMARY KEY (learner, query, sort)
                ) WITHOUT ROWID;
                """)
    }
}
