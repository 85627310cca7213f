import GRDB
import Platform
import Synchronization

/// The catalog order as data: `course.sort_rank` grows with (sort_key, id), with gaps so a
/// course can usually be placed between two others without moving any. The full-text index
/// `course_search` uses the rank as its rowid, so matches come out already in title order
/// and a page of results never needs a sort.
///
/// Since v9 the index holds two columns: `search_key` (the folded words of the title, the
/// instructor and the tags) and `search_facets` (a generated column of tokens for the
/// filters: `_cat<category>`, `_lvl<level>`, `_isfree`, `_isavail` for a course active with
/// a seat left), so every filter is an index lookup. `_` is a token character of this index
/// only for the facets: no searched word holds one, so a word's prefix (`c`, `is`) never
/// matches a facet, whose doclists span the whole catalog (`cat` took 20 ms to find nothing
/// at a million courses when the facets were plain words). The learner's favourites and enrollments
/// carry their course's rank (`course_rank`), so `is:favourite` and `is:enrolled` walk an
/// index in catalog order too.
enum CatalogOrder {
    /// Ranks are spread this far apart by `renumber`.
    static let gap: Int64 = 1 << 16

    /// FTS5's in-memory buffer while the whole index is filled at once (`rebuild`), and its
    /// own default, which every other write uses.
    static let fillHashSize = 1 << 30
    static let defaultHashSize = 1 << 20

    /// The index as shipped migrations built it; each keeps its own, so an old database
    /// migrates through every step as it did then (but for the update trigger's `WHEN`, which
    /// every layout shares: `searchUpdateTrigger`).
    enum Layout {
        /// v5–v8: title, instructor and tags.
        case v6
        /// v9 on: folded words and filter facets.
        case v9
    }

    static func createSearchTable(_ layout: Layout) -> String {
        switch layout {
        case .v6:
            """
            CREATE VIRTUAL TABLE course_search USING fts5(
                title, instructor, tags,
                content = 'course', content_rowid = 'sort_rank',
                tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3 4 5 6'
            )
            """
        case .v9:
            """
            CREATE VIRTUAL TABLE course_search USING fts5(
                search_key, search_facets,
                content = 'course', content_rowid = 'sort_rank',
                tokenize = "unicode61 remove_diacritics 2 tokenchars '_'", prefix = '1 2 3 4 5 6'
            )
            """
        }
    }

    private static func columns(_ layout: Layout) -> [String] {
        switch layout {
        case .v6: ["title", "instructor", "tags"]
        case .v9: ["search_key", "search_facets"]
        }
    }

    /// The index's columns as a trigger names them: the list, the new row's values, the old row's.
    private static func values(_ layout: Layout) -> (list: String, new: String, old: String) {
        let names = columns(layout)
        return (
            names.joined(separator: ", "), names.map { "new.\($0)" }.joined(separator: ", "),
            names.map { "old.\($0)" }.joined(separator: ", ")
        )
    }

    private static let searchTriggers = ["course_search_insert", "course_search_delete", "course_search_update"]
    private static let rankTrigger = "course_rank_moves"

    /// Keeps the index in step with the table for rows that have a rank. Dropped while
    /// `renumber` rewrites every rank, which rebuilds the index in one pass instead.
    private static func triggers(_ layout: Layout) -> [String] {
        let (list, new, old) = values(layout)
        var triggers = [
            """
            CREATE TRIGGER course_search_insert AFTER INSERT ON course WHEN new.sort_rank IS NOT NULL BEGIN
                INSERT INTO course_search (rowid, \(list)) VALUES (new.sort_rank, \(new));
            END
            """,
            """
            CREATE TRIGGER course_search_delete AFTER DELETE ON course WHEN old.sort_rank IS NOT NULL BEGIN
                INSERT INTO course_search (course_search, rowid, \(list)) VALUES ('delete', old.sort_rank, \(old));
            END
            """,
            searchUpdateTrigger(layout),
        ]
        if layout == .v9 {
            triggers.append(
                """
                CREATE TRIGGER course_rank_moves AFTER UPDATE OF sort_rank ON course BEGIN
                    UPDATE favourite SET course_rank = new.sort_rank WHERE course_id = new.id;
                    UPDATE enrollment SET course_rank = new.sort_rank WHERE course_id = new.id;
                END
                """)
        }
        return triggers
    }

    /// The course's row in the index written again when what the index holds of it changed
    /// (its rank, its words, its facets), and only then: every enrollment and every leaving
    /// moves the seats taken, which change the facets only when the last seat is taken or
    /// freed. Rewritten on every seat change, each enrollment wrote a segment of the index and
    /// now and then merged segments as large as a few megabytes inside its transaction (1 M,
    /// enrollment pairs on a fresh copy: a stall of 60-150 ms every 200-400 ms, p99 151-242 ms;
    /// BENCHMARKS). Shared by every layout, the shipped migrations' too (v30 put it in place of
    /// the one without `WHEN` they had made).
    static func searchUpdateTrigger(_ layout: Layout) -> String {
        let (list, new, old) = values(layout)
        let changed = (columns(layout) + ["sort_rank"]).map { "old.\($0) IS NOT new.\($0)" }.joined(separator: " OR ")
        let watched: String =
            switch layout {
            case .v6: "title, instructor, tags, sort_rank"
            // The facets follow category, level, price, active, capacity and the seats taken.
            case .v9: "search_key, category_key, level, price_minor, active, capacity, enrolled_count, sort_rank"
            }
        return """
            CREATE TRIGGER course_search_update AFTER UPDATE OF \(watched) ON course WHEN \(changed) BEGIN
                INSERT INTO course_search (course_search, rowid, \(list))
                SELECT 'delete', old.sort_rank, \(old) WHERE old.sort_rank IS NOT NULL;
                INSERT INTO course_search (rowid, \(list))
                SELECT new.sort_rank, \(new) WHERE new.sort_rank IS NOT NULL;
            END
            """
    }

    /// Gives every course a fresh rank in catalog order, rebuilds the search index, and (v9)
    /// gives the learners' favourites and enrollments their courses' new ranks.
    static func renumber(_ db: Database, layout: Layout = .v9, progress: ImportProgress? = nil) throws {
        try CatalogRevision.whileRewriting(db) { try rebuild(db, layout: layout, ranking: true, progress: progress) }
    }

    /// What `renumber` does once every course already has its rank in catalog order (a bulk
    /// import, placed in memory before it was written): the search index and the learners' ranks.
    /// `prebuilt`: the index built beside the import (`SideIndex`, finished), copied in place
    /// of filling it.
    static func reindex(_ db: Database, progress: ImportProgress? = nil, prebuilt: SideIndex? = nil) throws {
        try CatalogRevision.whileRewriting(db) { try rebuild(db, layout: .v9, ranking: false, progress: progress, prebuilt: prebuilt) }
    }

    /// Ranks in catalog order as `renumber` gives them: `gap` times the course's place.
    static func rank(atPlace place: Int) -> Int64 { Int64(place + 1) * gap }

    private static func rebuild(
        _ db: Database, layout: Layout, ranking: Bool, progress: ImportProgress? = nil, prebuilt: SideIndex? = nil
    ) throws {
        // `main.`: a trigger named without its schema and not there is looked for in every
        // attached file, each then read until the transaction ends (`SideIndex`).
        for name in searchTriggers + [rankTrigger] {
            try db.execute(sql: "DROP TRIGGER IF EXISTS main.\(name)")
        }
        if ranking {
            progress?.begin(.ordering)
            try db.execute(
                sql: """
                    WITH ordered AS (SELECT id, row_number() OVER (ORDER BY sort_key, id) AS position FROM course)
                    UPDATE course SET sort_rank = ordered.position * \(gap) FROM ordered WHERE ordered.id = course.id
                    """)
        }
        if layout == .v9, let prebuilt {
            try prebuilt.copy(into: db)
            try finish(db, layout: layout, progress: progress)
            return
        }
        // Filled in rank order, not by 'rebuild': that reads the courses in table order, where
        // ranks come at random, and FTS5 writes out what it holds whenever a rowid is lower than
        // the last one, so a million courses made about half a million segments to merge
        // (1 M: 90 s against 35 s in order).
        let list = columns(layout).joined(separator: ", ")
        try db.execute(sql: "INSERT INTO course_search (course_search) VALUES ('delete-all')")
        // FTS5 keeps what it indexes in memory up to `hashsize` (1 MB by default), then writes
        // it out as a segment and merges segments as they pile up: at a million courses the
        // fill wrote hundreds and merged them again and again. With room for the whole fill it
        // writes one segment, and the optimize below has nothing left to merge (1 M: fill and
        // optimize 51-58 s -> 27-33 s, for 0.6-0.7 GB more memory; BENCHMARKS, Imports). The
        // setting is stored with the index, so it is put back as soon as the index is built.
        try db.execute(sql: "INSERT INTO course_search (course_search, rank) VALUES ('hashsize', \(Self.fillHashSize))")
        try IndexingCount.fill(list, in: db, progress: progress)
        // One segment: a rebuilt index is left in many, and then every prefix lookup merges
        // them all. Probing a learner's favourites against a prefix costs 135 µs a course on
        // a million-course index as rebuilt, 7 µs once optimised (8 s for the million).
        progress?.begin(.compacting)
        try db.execute(sql: "INSERT INTO course_search (course_search) VALUES ('optimize')")
        try db.execute(sql: "INSERT INTO course_search (course_search, rank) VALUES ('hashsize', \(Self.defaultHashSize))")
        try finish(db, layout: layout, progress: progress)
    }

    /// After the index: the learners' ranks, and the triggers back.
    private static func finish(_ db: Database, layout: Layout, progress: ImportProgress?) throws {
        progress?.begin(.finishing)
        if layout == .v9 {
            try db.execute(sql: "UPDATE favourite SET course_rank = (SELECT sort_rank FROM course WHERE id = favourite.course_id)")
            try db.execute(sql: "UPDATE enrollment SET course_rank = (SELECT sort_rank FROM course WHERE id = enrollment.course_id)")
        }
        for trigger in triggers(layout) {
            try db.execute(sql: trigger)
        }
    }

    /// A free rank between the neighbours `id` would have at `sortKey` (not counting itself),
    /// or nil when they are adjacent and the catalog must be renumbered.
    static func rank(forSortKey sortKey: String, id: String, in db: Database) throws -> Int64? {
        let before = try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT sort_rank FROM course
                    WHERE (sort_key, id) < (?, ?) AND id != ? AND sort_rank IS NOT NULL
                    ORDER BY sort_key DESC, id DESC LIMIT 1
                    """),
            arguments: [sortKey, id, id]
        )
        let after = try Int64.fetchOne(
            db.cachedStatement(
                sql: """
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

/// The search index filled from the courses in rank order, and for an import's progress the
/// rows it has taken: each row's rank goes through a function that counts it (a few hundred
/// nanoseconds a row), registered only while someone watches.
enum IndexingCount {
    static let function = "edugo_indexing_counted"

    /// The fill, its rank through `function` when `counted`. Counted, the sorted rows come
    /// from a subquery that cannot be flattened (`LIMIT -1 OFFSET 0`): with the rank's index
    /// dropped (a bulk import filling the index itself) SQLite sorts, and a function of the
    /// outer query's columns was called as the table was scanned, before the sort, so the count
    /// was whole before the first row reached the index.
    static func statement(_ list: String, counted: Bool) -> String {
        guard counted else {
            return
                "INSERT INTO course_search (rowid, \(list)) SELECT sort_rank, \(list) FROM course WHERE sort_rank IS NOT NULL ORDER BY sort_rank"
        }
        return """
            INSERT INTO course_search (rowid, \(list))
            SELECT \(function)(ranked), \(list) FROM (
                SELECT sort_rank AS ranked, \(list) FROM course WHERE sort_rank IS NOT NULL ORDER BY sort_rank LIMIT -1 OFFSET 0)
            """
    }

    static func fill(_ list: String, in db: Database, progress: ImportProgress?) throws {
        guard let progress else { return try db.execute(sql: statement(list, counted: false)) }
        let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM course WHERE sort_rank IS NOT NULL") ?? 0
        progress.begin(.indexing, total: total)
        let rows = Rows()
        let counted = DatabaseFunction(function, argumentCount: 1, pure: false) { values in
            let done = rows.count.add(1, ordering: .relaxed).newValue
            if done % 1_024 == 0 { progress.advance(to: done) }
            return values[0]
        }
        db.add(function: counted)
        defer { db.remove(function: counted) }
        try db.execute(sql: statement(list, counted: true))
        progress.advance(to: rows.count.load(ordering: .relaxed))
    }

    private final class Rows: Sendable {
        let count = Atomic<Int>(0)
    }
}
