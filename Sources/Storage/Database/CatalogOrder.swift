import GRDB

/// The catalog order as data: `course.sort_rank` grows with (sort_key, id), with gaps so a
/// course can usually be placed between two others without moving any. The full-text index
/// `course_search` uses the rank as its rowid, so matches come out already in title order
/// and a page of results never needs a sort.
enum CatalogOrder {
    /// Ranks are spread this far apart by `renumber`.
    static let gap: Int64 = 1 << 16

    static let createSearchTable = """
        CREATE VIRTUAL TABLE course_search USING fts5(
            title, instructor, tags,
            content = 'course', content_rowid = 'sort_rank',
            tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3 4 5 6'
        )
        """

    /// Keeps the index in step with the table for rows that have a rank. Dropped while
    /// `renumber` rewrites every rank, which rebuilds the index in one pass instead.
    private static let triggers = [
        """
        CREATE TRIGGER course_search_insert AFTER INSERT ON course WHEN new.sort_rank IS NOT NULL BEGIN
            INSERT INTO course_search (rowid, title, instructor, tags)
            VALUES (new.sort_rank, new.title, new.instructor, new.tags);
        END
        """,
        """
        CREATE TRIGGER course_search_delete AFTER DELETE ON course WHEN old.sort_rank IS NOT NULL BEGIN
            INSERT INTO course_search (course_search, rowid, title, instructor, tags)
            VALUES ('delete', old.sort_rank, old.title, old.instructor, old.tags);
        END
        """,
        """
        CREATE TRIGGER course_search_update AFTER UPDATE OF title, instructor, tags, sort_rank ON course BEGIN
            INSERT INTO course_search (course_search, rowid, title, instructor, tags)
            SELECT 'delete', old.sort_rank, old.title, old.instructor, old.tags WHERE old.sort_rank IS NOT NULL;
            INSERT INTO course_search (rowid, title, instructor, tags)
            SELECT new.sort_rank, new.title, new.instructor, new.tags WHERE new.sort_rank IS NOT NULL;
        END
        """,
    ]

    /// Gives every course a fresh rank in catalog order and rebuilds the search index.
    static func renumber(_ db: Database) throws {
        for name in ["course_search_insert", "course_search_delete", "course_search_update"] {
            try db.execute(sql: "DROP TRIGGER IF EXISTS \(name)")
        }
        try db.execute(sql: """
            WITH ordered AS (SELECT id, row_number() OVER (ORDER BY sort_key, id) AS position FROM course)
            UPDATE course SET sort_rank = ordered.position * \(gap) FROM ordered WHERE ordered.id = course.id
            """)
        try db.execute(sql: "INSERT INTO course_search (course_search) VALUES ('rebuild')")
        for trigger in triggers {
            try db.execute(sql: trigger)
        }
    }

    /// A free rank between the neighbours `id` would have at `sortKey` (not counting itself),
    /// or nil when they are adjacent and the catalog must be renumbered.
    static func rank(forSortKey sortKey: String, id: String, in db: Database) throws -> Int64? {
        let before = try Int64.fetchOne(
            db.cachedStatement(sql: """
                SELECT sort_rank FROM course
                WHERE (sort_key, id) < (?, ?) AND id != ? AND sort_rank IS NOT NULL
                ORDER BY sort_key DESC, id DESC LIMIT 1
                """),
            arguments: [sortKey, id, id]
        )
        let after = try Int64.fetchOne(
            db.cachedStatement(sql: """
                SELECT sort_rank FROM course
                WHERE (sort_key, id) > (?, ?) AND id != ? AND sort_rank IS NOT NULL
                ORDER BY sort_key, id LIMIT 1
                """),
            arguments: [sortKey, id, id]
        )
        switch (before, after) {
        case (nil, nil): return gap
        case (let low?, nil): return low.addingReportingOverflow(gap).overflow ? nil : low + gap
        case (nil, let high?): return high > 1 ? high / 2 : nil
        case (let low?, let high?): return high - low >= 2 ? low + (high - low) / 2 : nil
        }
    }
}
