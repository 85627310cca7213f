import GRDB

/// A number that changes whenever what a search matches may change: a course added or
/// removed, or one of the columns the search index reads (seats aside) rewritten. Counts of
/// matches are kept per query until it changes (`MatchCounts`).
enum CatalogRevision {
    private static let triggers = [
        "catalog_revision_after_insert": "AFTER INSERT ON course",
        "catalog_revision_after_delete": "AFTER DELETE ON course",
        // What the index reads, seats aside: the seats only feed `is:open`, which depends on
        // the learner and is never kept.
        "catalog_revision_after_update":
            "AFTER UPDATE OF search_key, category_key, level, price_minor, active, capacity, sort_rank ON course",
    ]

    /// v12: the table and the triggers that keep it.
    static func create(in db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE catalog_revision (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    revision INTEGER NOT NULL
                );
                INSERT INTO catalog_revision (id, revision) VALUES (1, 1);
                """)
        try createTriggers(in: db)
    }

    static func read(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT revision FROM catalog_revision WHERE id = 1")) ?? 0
    }

    /// Runs `body`, which rewrites many courses at once (the catalog renumbered), with the
    /// triggers off, and moves the revision on once: a trigger a row would add a million
    /// updates to renumbering a million courses. Before v12 there is nothing to keep.
    static func whileRewriting(_ db: Database, _ body: () throws -> Void) throws {
        guard try db.tableExists("catalog_revision") else { return try body() }
        for name in triggers.keys {
            try db.execute(sql: "DROP TRIGGER IF EXISTS main.\(name)")
        }
        try body()
        try createTriggers(in: db)
        try bump(in: db)
    }

    private static func createTriggers(in db: Database) throws {
        for (name, event) in triggers {
            try db.execute(sql: "CREATE TRIGGER \(name) \(event) BEGIN \(bumpSQL); END")
        }
    }

    private static func bump(in db: Database) throws {
        try db.execute(sql: bumpSQL)
    }

    private static let bumpSQL = "UPDATE catalog_revision SET revision = revision + 1 WHERE id = 1"
}
