import GRDB

extension Migrations {
    /// `v24-outbox`: a terminal's side of the operations (remote mode offline): the writes made
    /// here and not yet acknowledged by the server, in the order made, and this replica's
    /// hybrid clock (its node name and last reading), so times keep rising across restarts.
    static func v24Outbox(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE outbox (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    user_id INTEGER NOT NULL,
                    id TEXT NOT NULL UNIQUE,
                    operation TEXT NOT NULL
                );
                CREATE TABLE hybrid_clock (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    node TEXT NOT NULL,
                    last TEXT
                );
                """)
    }
}
