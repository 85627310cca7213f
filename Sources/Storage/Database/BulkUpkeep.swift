import GRDB

/// What a row written to `course` costs besides itself: six indexes of the catalog's orders and
/// triggers that move a counter, the revision and the learners' ranks, each once per row. A
/// bulk import (which places every course anew anyway) does that work once: the indexes are
/// built afresh by one sort each, the counters set once.
enum BulkUpkeep {
    /// The indexes on `course` besides its key: built again after the rows are in.
    private static let indexes = [
        "course_by_sort_key", "course_by_rank", "course_by_price", "course_by_duration", "course_by_level", "course_by_added",
    ]
    /// The triggers that would fire per row. The search index's and the ranks' are the
    /// reindexing's own (it rebuilds both; a bulk import's rows come with their ranks, so the
    /// index's insert trigger would fire too); the catalog's size is counted afterwards, and
    /// the revision moved once.
    private static let triggers = [
        "catalog_size_after_insert", "catalog_revision_after_insert", "catalog_revision_after_update", "course_search_insert",
        "course_search_update", "course_rank_moves",
    ]

    /// Runs `write`, which must end by reindexing the catalog (`CatalogOrder`), with the
    /// per-row upkeep off, then puts every index and trigger back as it was defined, inside the
    /// caller's transaction (a failure rolls all of it back with the rows). `write` may build
    /// the indexes sooner (`OrderIndexes.build`): while another core ends the search index.
    static func deferred(in db: Database, _ write: (OrderIndexes) throws -> Void) throws {
        let names = indexes + triggers
        let placeholders = names.map { _ in "?" }.joined(separator: ", ")
        let saved = try Row.fetchAll(
            db, sql: "SELECT type, name, sql FROM sqlite_master WHERE name IN (\(placeholders)) AND sql IS NOT NULL",
            arguments: StatementArguments(names)
        ).map { (type: $0["type"] as String, name: $0["name"] as String, sql: $0["sql"] as String) }
        for object in saved {
            try db.execute(sql: "DROP \(object.type == "index" ? "INDEX" : "TRIGGER") IF EXISTS \(object.name)")
        }
        // A bigger page cache while the rows and the search index are written: with SQLite's
        // 2 MB, pages went out to the WAL and were read back again and again (1 M courses:
        // 83 -> 71 s with 256 MB). It is given back for every later access.
        let cache = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2_000
        try db.execute(sql: "PRAGMA cache_size = -262144")
        defer { try? db.execute(sql: "PRAGMA cache_size = \(cache)") }
        let orderIndexes = OrderIndexes(saved.filter { $0.type == "index" }.map(\.sql))
        try write(orderIndexes)
        try orderIndexes.build(in: db)
        // The reindexing puts back the triggers it keeps itself; the rest come back here.
        for object in saved
        where try !(Bool.fetchOne(db, sql: "SELECT 1 FROM sqlite_master WHERE name = ?", arguments: [object.name]) ?? false) {
            try db.execute(sql: object.sql)
        }
        try db.execute(sql: "UPDATE catalog_size SET courses = (SELECT count(*) FROM course) WHERE id = 1")
        try db.execute(sql: "UPDATE catalog_revision SET revision = revision + 1 WHERE id = 1")
    }

    /// The order indexes a bulk import dropped, built again once: when the import says (while
    /// the search index's builder ends its fill on the other core), or at its end.
    final class OrderIndexes {
        private var pending: [String]

        fileprivate init(_ definitions: [String]) { pending = definitions }

        /// Builds those not built yet, each by one sort. Safe while `SideIndex`'s builder still
        /// writes its attached file: a `CREATE INDEX` finds `course` in `main` and reads no other
        /// file (one read there would be held to the commit, and the builder could not commit:
        /// `CourseImportTests`' held builder fails then).
        func build(in db: Database) throws {
            for definition in pending { try db.execute(sql: definition) }
            pending = []
        }
    }
}
