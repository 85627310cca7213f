import GRDB
import SharedKernel

/// The course catalog in SQLite.
public struct SQLiteCourseRepository: CourseRepository {
    private let database: AppDatabase
    private let matchCounts = MatchCounts()
    private let termCounts = TermCounts()
    private let prefixTerms = PrefixTerms()

    public init(database: AppDatabase) {
        self.database = database
    }

    public func page(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError)
        -> [CatalogRow]
    {
        guard !query.matchesNothing else { return [] }
        return try await database.read { db in try page(query, for: learner, at: position, limit: limit, in: db) }
    }

    /// A page read in `db`: the async `page` in a read of its own.
    func page(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int, in db: Database) throws -> [CatalogRow]
    {
        try rows(query, for: learner, at: position, limit: limit, walkingOrder: try walksOrder(query, for: learner, in: db), in: db)
    }

    public func count(_ query: CatalogQuery, for learner: UserID?) async throws(AppError) -> CatalogCount {
        guard !query.matchesNothing else { return .exactly(0) }
        return try await database.read { db in try count(query, for: learner, in: db) }
    }

    /// One read transaction for both: one hop to a reader instead of two (the server answers
    /// every page with its count).
    public func countedPage(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError)
        -> CountedPage
    {
        guard !query.matchesNothing else { return CountedPage(rows: [], total: .exactly(0)) }
        return try await database.read { db in
            // Counted once: the count also chooses the page's plan.
            let total = try count(query, for: learner, in: db)
            return CountedPage(
                rows: try rows(
                    query, for: learner, at: position, limit: limit,
                    walkingOrder: try walksOrder(query, for: learner, counted: total, in: db), in: db),
                total: total
            )
        }
    }

    /// A search in an order other than title's with this many matches or more walks the
    /// order's index, keeping the rows it matches; with fewer it sorts them.
    static let sortedMatchesLimit = 2_000

    /// Whether a page of `query` walks its order's index, keeping the rows the search matches
    /// (their ranks read from the full-text index once, into a set): with many matches the
    /// page is found after a few of the index's rows, where sorting every match would read
    /// every match's row (65 ms for `level:adv` at 100 k). With few, sorting them is cheaper
    /// than walking the index past rows that do not match. The count is the one the page is
    /// answered with, kept per revision.
    private func walksOrder(_ query: CatalogQuery, for learner: UserID?, counted: CatalogCount? = nil, in db: Database) throws -> Bool {
        let plan = FullTextQuery(query)
        guard query.sort.field != .title, plan.mine == nil, plan.match != nil else { return false }
        switch try counted ?? count(query, for: learner, in: db) {
        case .atLeast: return true
        case .exactly(let count): return count >= Self.sortedMatchesLimit
        }
    }

    /// The query as the index answers it: filters alone, two or more, walk the rarest
    /// filter's matches and check the others on each row (`FullTextQuery.driven(by:)`); each
    /// filter's count is kept a few minutes (`TermCounts`), and only chooses the plan.
    func plan(of query: CatalogQuery, in db: Database) throws -> FullTextQuery {
        let plan = try fullText(query, in: db)
        guard plan.mine == nil, query.words.isEmpty, plan.facetTerms.count >= 2 else { return plan }
        let rarest = try termCounts.rarestFirst(plan.facetTerms) { missing in
            let count = try db.cachedStatement(
                sql: "SELECT count(*) FROM (SELECT 1 FROM course_search WHERE course_search MATCH ? LIMIT ?)")
            var counted: [String: Int] = [:]
            for term in missing { counted[term] = try Int.fetchOne(count, arguments: [term, TermCounts.bound]) ?? 0 }
            return counted
        }
        return rarest.first.map(plan.driven(by:)) ?? plan
    }

    /// The query as the index is asked it: a word past the longest prefix index by the terms
    /// it begins (`PrefixTerms`).
    private func fullText(_ query: CatalogQuery, in db: Database) throws -> FullTextQuery {
        FullTextQuery(query, terms: try prefixTerms.terms(of: FullTextQuery.prefixes(of: query), in: db))
    }

    private func rows(
        _ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int, walkingOrder: Bool, in db: Database
    ) throws -> [CatalogRow] {
        guard walkingOrder, query.sort.field == .level, query.level == nil else {
            return try Self.page(
                query, plan: try plan(of: query, in: db), for: learner, at: position, limit: limit, walkingOrder: walkingOrder, in: db)
        }
        return try levelByLevel(query, for: learner, at: position, limit: limit, in: db)
    }

    /// A search with many matches in level order, read as one title-order search per level
    /// (`level:beginner`, then the next): walking the level index instead passes every course
    /// of a level that sorts before the matches by title, and a category's titles sort
    /// together (`cat:Rust` read 330 k beginners' rows before the first Rust one: 600 ms at
    /// 1 M, against 1-2 ms this way).
    private func levelByLevel(
        _ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int, in db: Database
    ) throws -> [CatalogRow] {
        var rows: [CatalogRow] = []
        for (level, from) in position.levelByLevel(descending: query.sort.descending) where rows.count < limit {
            var one = query
            one.level = level
            let found = try Self.page(one, plan: try plan(of: one, in: db), for: learner, at: from, limit: limit - rows.count, in: db)
            rows = position.walk.backwards ? found + rows : rows + found
        }
        return rows
    }

    private static func page(
        _ query: CatalogQuery, plan: FullTextQuery, for learner: UserID?, at position: CatalogPosition, limit: Int,
        walkingOrder: Bool = false, in db: Database
    ) throws -> [CatalogRow] {
        // Every plan in title order walks an index in rank order and stops after `limit`
        // rows: the table's rank index for the whole catalog, the full-text index (whose rowid
        // is the rank) for words and filters, the learner's favourites or enrollments (which
        // carry their course's rank) for `is:favourite` and `is:enrolled`. The whole catalog
        // in another order walks that order's index (value, rank); a search in another order
        // sorts its matches, or with many walks the index too (`walksOrder`). Backwards pages
        // are read against the order, then turned around.
        let (bound, backwards) = position.walk
        let rows = try readPage(
            plan, learner: learner, sort: query.sort, walkingOrder: walkingOrder, bound: bound,
            descending: backwards != query.sort.descending, limit: max(0, limit), in: db)
        return backwards ? rows.reversed() : rows
    }

    /// Reads `limit` decodable rows from `bound` on. A damaged row is left out, and the rows
    /// after it read instead, so the page is still full when the catalog goes on: a short
    /// page means the end.
    static func readPage(
        _ plan: FullTextQuery,
        learner: UserID?,
        sort: CatalogSort = .title,
        walkingOrder: Bool = false,
        bound: CatalogKey?,
        descending: Bool,
        limit: Int,
        in db: Database
    ) throws -> [CatalogRow] {
        var rows: [CatalogRow] = []
        var bound = bound
        while rows.count < limit {
            let wanted = limit - rows.count
            let (sql, arguments) = pageSQL(
                plan, learner: learner, sort: sort, walkingOrder: walkingOrder, bound: bound, descending: descending, limit: wanted)
            // Read from the statement as it steps: no copy of each row (and of its column
            // names) first.
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
            let start = bound
            var read = 0
            while let row = try cursor.next() {
                read += 1
                // `catalog_key`, `sort_value` and `added_seq` follow the course's columns (by position: see
                // `CourseRow`).
                guard let rank = row[CourseRow.columnCount] as Int64? else { continue }
                let value = row[CourseRow.columnCount + 1] as Int64?
                guard sort.field == .title || value != nil else { continue }
                let key = CatalogKey(rank, sortValue: sort.field == .title ? nil : value)
                bound = key
                if let course = try? CourseRow.course(from: row) {
                    rows.append(CatalogRow(key: key, course: course, added: row[CourseRow.columnCount + 2]))
                }
            }
            // The end, or rows so damaged that none gave a place to go on from.
            if read < wanted || bound == start { break }
        }
        return rows
    }

    /// The column a sort orders by before the rank; nil for title order.
    static func sortColumn(_ sort: CatalogSort) -> String? {
        switch sort.field {
        case .title: nil
        case .price: "course.price_order"
        case .duration: "course.duration_minutes"
        case .level: "course.level_rank"
        case .newest: "course.added_seq"
        }
    }

    /// The page query and its arguments: rows in `sort`'s order (`descending`: against its
    /// columns' ascending order) past `bound`.
    static func pageSQL(
        _ plan: FullTextQuery, learner: UserID?, sort: CatalogSort = .title, walkingOrder: Bool = false, bound: CatalogKey?,
        descending: Bool, limit: Int
    ) -> (String, StatementArguments) {
        let walking = walkingOrder && sortColumn(sort) != nil && plan.fixedValue(for: sort) == nil
        var (source, rank, conditions, arguments) = selection(plan, learner: learner, walkingOrder: walking)
        let direction = descending ? "DESC" : "ASC"
        let order: String
        let value: String
        let fixed = plan.fixedValue(for: sort)
        if let column = sortColumn(sort), fixed == nil {
            // The course's own rank, not the walked list's: the same value, and the index
            // (value, rank) holds it.
            order = "\(column) \(direction), course.sort_rank \(direction)"
            value = column
            if let bound {
                conditions.append("(\(column), course.sort_rank) \(descending ? "<" : ">") (?, ?)")
                _ = arguments.append(contentsOf: [bound.sortValue ?? 0, bound.rawValue])
            }
        } else {
            // Title order, or an order whose value the filters fix: the rank alone orders.
            order = "\(rank) \(direction)"
            value = fixed.map(String.init) ?? "NULL"
            if let bound {
                conditions.append("\(rank) \(descending ? "<" : ">") ?")
                _ = arguments.append(contentsOf: [bound.rawValue])
            }
        }
        _ = arguments.append(contentsOf: [limit])
        let sql = """
            SELECT \(CourseRow.columns), course.sort_rank AS catalog_key, \(value) AS sort_value, course.added_seq FROM \(source)
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY \(order) LIMIT ?
            """
        return (sql, arguments)
    }

    /// Where the rows come from, the rank that orders them, and the conditions on them.
    private static func selection(_ plan: FullTextQuery, learner: UserID?, walkingOrder: Bool = false) -> (
        source: String, rank: String, conditions: [String], arguments: StatementArguments
    ) {
        var conditions: [String] = []
        var arguments = StatementArguments()
        let source: String
        let rank: String
        // A learner's own lists, for nobody: nothing (an id no account has).
        let learnerID = learner?.rawValue ?? -1
        if let mine = plan.mine {
            switch mine {
            case .favourites, .both:
                source = "favourite AS mine JOIN course ON course.sort_rank = mine.course_rank"
                conditions.append("mine.user_id = ?")
            case .enrollments:
                source = "enrollment AS mine JOIN course ON course.sort_rank = mine.course_rank"
                conditions.append("mine.user_id = ? AND mine.status != 'dropped'")
            }
            _ = arguments.append(contentsOf: [learnerID])
            rank = "mine.course_rank"
            if mine == .both {
                conditions.append(
                    "EXISTS (SELECT 1 FROM enrollment AS taken WHERE taken.user_id = ? AND taken.course_id = course.id AND taken.status != 'dropped')"
                )
                _ = arguments.append(contentsOf: [learnerID])
            }
            if let match = plan.match {
                // The learner's list is short and the matches may be most of the catalog (`d`):
                // each course of the list is looked up in the index, rather than every match
                // gathered first (100 ms for `d` at a million).
                conditions.append(
                    "EXISTS (SELECT 1 FROM course_search WHERE course_search MATCH ? AND course_search.rowid = mine.course_rank)")
                _ = arguments.append(contentsOf: [match])
            }
        } else if let match = plan.match, walkingOrder {
            // The order's index is walked; each row is checked against the filters, or, for
            // words, looked up in the set of the matches' ranks (`+`: the set filters, it
            // does not drive).
            source = "course"
            rank = "course.sort_rank"
            if let facets = plan.facetConditions {
                conditions += facets.sql
                _ = arguments.append(contentsOf: facets.arguments)
            } else {
                conditions.append("+course.sort_rank IN (SELECT rowid FROM course_search WHERE course_search MATCH ?)")
                _ = arguments.append(contentsOf: [match])
            }
        } else if let match = plan.match {
            source = "course_search JOIN course ON course.sort_rank = course_search.rowid"
            rank = "course_search.rowid"
            conditions.append("course_search MATCH ?")
            _ = arguments.append(contentsOf: [match])
            if plan.checksFiltersOnRows, let facets = plan.facetConditions {
                conditions += facets.sql
                _ = arguments.append(contentsOf: facets.arguments)
            }
        } else {
            source = "course"
            rank = "course.sort_rank"
            conditions.append("course.sort_rank IS NOT NULL")
        }
        if plan.openForLearner {
            // The `_isavail` facet says active with a seat left; the rest depends on the learner.
            conditions.append(
                """
                (course.prerequisite_id IS NULL
                 OR NOT EXISTS (SELECT 1 FROM course AS required WHERE required.id = course.prerequisite_id)
                 OR EXISTS (SELECT 1 FROM enrollment AS done WHERE done.user_id = ? AND done.course_id = course.prerequisite_id AND done.completed_at IS NOT NULL))
                AND NOT EXISTS (SELECT 1 FROM enrollment AS taken WHERE taken.user_id = ? AND taken.course_id = course.id AND taken.status != 'dropped')
                """)
            _ = arguments.append(contentsOf: [learnerID, learnerID])
        }
        return (source, rank, conditions, arguments)
    }

    private func count(_ query: CatalogQuery, for learner: UserID?, in db: Database) throws -> CatalogCount {
        if query.isEverything {
            return .exactly(try Int.fetchOne(db.cachedStatement(sql: "SELECT courses FROM catalog_size WHERE id = 1")) ?? 0)
        }
        guard !query.dependsOnLearner else { return try Self.countMatches(query, plan: fullText(query, in: db), for: learner, in: db) }
        // Read in the same transaction as the count: the revision is the one counted.
        let revision = try CatalogRevision.read(in: db)
        if let kept = matchCounts.count(of: query, at: revision) { return kept }
        let count = try Self.countMatches(query, plan: fullText(query, in: db), for: learner, in: db)
        matchCounts.keep(count, of: query, at: revision)
        return count
    }

    /// Counts what `query` matches, up to its limit.
    private static func countMatches(_ query: CatalogQuery, plan: FullTextQuery, for learner: UserID?, in db: Database) throws
        -> CatalogCount
    {
        // Counting stops past the query's limit: 10,000 `is:open` checks take 13 ms.
        let limit = query.countLimit
        var all = StatementArguments()
        let sql: String
        if plan.mine == nil, !plan.openForLearner, let match = plan.match {
            // Words and facets only: the full-text index alone answers, no course row read.
            sql = "SELECT count(*) FROM (SELECT 1 FROM course_search WHERE course_search MATCH ? LIMIT ?)"
            _ = all.append(contentsOf: [match])
        } else {
            let (source, _, conditions, arguments) = selection(plan, learner: learner)
            sql = "SELECT count(*) FROM (SELECT 1 FROM \(source) WHERE \(conditions.joined(separator: " AND ")) LIMIT ?)"
            all = arguments
        }
        _ = all.append(contentsOf: [limit + 1])
        let count = try Int.fetchOne(db.cachedStatement(sql: sql), arguments: all) ?? 0
        return count > limit ? .atLeast(limit) : .exactly(count)
    }

    public func course(id: CourseID) async throws(AppError) -> Course {
        let course = try await database.read { db in try Self.course(id, in: db) }
        guard let course else { throw .courseNotFound(id) }
        return course
    }

    public func syllabus(of id: CourseID) async throws(AppError) -> Syllabus {
        let syllabus = try await database.read { db in
            try Self.course(id, in: db).map { Syllabus(course: $0, lessons: try CourseRow.lessons(of: $0, in: db)) }
        }
        guard let syllabus else { throw .courseNotFound(id) }
        return syllabus
    }

    private static func course(_ id: CourseID, in db: Database) throws -> Course? {
        do {
            return try CourseRow.fetch(id, in: db)
        } catch let damaged as DamagedRow {
            throw AppError.storage(.reading, detail: damaged.description)
        }
    }
}
