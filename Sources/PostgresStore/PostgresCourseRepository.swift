import Logging
import PostgresNIO
import SharedKernel

/// The course catalog in PostgreSQL (`PostgresCatalog` says how it is laid out).
public struct PostgresCourseRepository: CourseRepository {
    private let database: PostgresDatabase
    private let matchCounts = MatchCounts()
    let termCounts = TermCounts()
    /// Kept for counts and pages of common terms (`PostgresCourseRepository+Lists`).
    let termLists = TermLists()

    public init(database: PostgresDatabase) {
        self.database = database
    }

    public func page(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError)
        -> [CatalogRow]
    {
        guard !query.matchesNothing else { return [] }
        let logger = database.logger
        return try await database.read { connection in
            let terms = try await orderedTerms(query, in: connection, logger: logger)
            return try await rows(
                query, terms: terms, for: learner, at: position, limit: limit,
                walkingOrder: try await walksOrder(query, terms: terms, for: learner, in: connection, logger: logger), in: connection,
                logger: logger)
        }
    }

    public func count(_ query: CatalogQuery, for learner: UserID?) async throws(AppError) -> CatalogCount {
        guard !query.matchesNothing else { return .exactly(0) }
        let logger = database.logger
        return try await database.read { connection in
            try await count(
                query, terms: try await orderedTerms(query, in: connection, logger: logger), for: learner, in: connection, logger: logger)
        }
    }

    /// One connection for both. Where the page's plan does not depend on the count, one
    /// statement reads the page and what its count needs (the catalog's size, or the revision
    /// a kept count is filed under): one round trip for a page whose count is known.
    public func countedPage(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError)
        -> CountedPage
    {
        guard !query.matchesNothing else { return CountedPage(rows: [], total: .exactly(0)) }
        let logger = database.logger
        return try await database.read { connection in
            let terms = try await orderedTerms(query, in: connection, logger: logger)
            guard Self.mayWalkOrder(query, terms: terms) else {
                if let listed = try await listedPage(query, terms: terms, at: position, limit: limit, in: connection, logger: logger) {
                    let total = try await keptCount(
                        query, terms: terms, for: learner, at: listed.revision, in: connection, logger: logger)
                    return CountedPage(rows: listed.rows, total: total)
                }
                let alongside: String? =
                    if query.isEverything { "(SELECT courses FROM catalog_size WHERE id = 1)" } else if !query.dependsOnLearner {
                        "(SELECT revision FROM catalog_revision WHERE id = 1)"
                    } else { nil }
                let page = try await Self.page(
                    query, terms: terms, counts: termCounts.counts(of: terms), for: learner, at: position, limit: limit,
                    alongside: alongside,
                    in: connection, logger: logger)
                let total: CatalogCount
                switch (page.alongside, query.isEverything) {
                case (let size?, true): total = .exactly(Int(size))
                case (let revision?, false):
                    total = try await keptCount(query, terms: terms, for: learner, at: revision, in: connection, logger: logger)
                // No row to carry it (an empty page), or a count that depends on the learner.
                case (nil, _): total = try await count(query, terms: terms, for: learner, in: connection, logger: logger)
                }
                return CountedPage(rows: page.rows, total: total)
            }
            // Counted once: the count also chooses the page's plan.
            let total = try await count(query, terms: terms, for: learner, in: connection, logger: logger)
            return CountedPage(
                rows: try await rows(
                    query, terms: terms, for: learner, at: position, limit: limit,
                    walkingOrder: try await walksOrder(query, terms: terms, for: learner, counted: total, in: connection, logger: logger),
                    in: connection, logger: logger),
                total: total
            )
        }
    }

    public func course(id: CourseID) async throws(AppError) -> Course {
        let logger = database.logger
        let course = try await database.read { connection in try await Self.course(id, in: connection, logger: logger) }
        guard let course else { throw .courseNotFound(id) }
        return course
    }

    public func syllabus(of id: CourseID) async throws(AppError) -> Syllabus {
        let logger = database.logger
        let syllabus = try await database.read { connection -> Syllabus? in
            guard let course = try await Self.course(id, in: connection, logger: logger) else { return nil }
            var lessons: [Lesson] = []
            let rows = try await connection.prepared(
                "SELECT title, minutes, question_count FROM lesson WHERE course_id = \(id.rawValue) ORDER BY position", logger: logger
            )
            for try await (title, minutes, questions) in rows.decode((String, Int, Int).self) {
                // A count out of SPEC's range is damage: the score counts none.
                lessons.append(
                    Lesson(title: title, minutes: minutes, questionCount: ContentLimits.questions.contains(questions) ? questions : 0))
            }
            return Syllabus(course: course, lessons: lessons.isEmpty ? [.only(of: course)] : lessons)
        }
        guard let syllabus else { throw .courseNotFound(id) }
        return syllabus
    }

    /// One course; with `locking`, its row is locked until the transaction ends (writes that
    /// check its seats take turns).
    static func course(_ id: CourseID, locking: Bool = false, in connection: PostgresConnection, logger: Logger) async throws -> Course? {
        let rows = try await connection.prepared(
            "SELECT \(unescaped: PostgresCatalog.columns) FROM course WHERE id = \(id.rawValue) \(unescaped: locking ? "FOR UPDATE" : "")",
            logger: logger
        )
        for try await row in rows { return try PostgresCatalog.course(row) }
        return nil
    }

    // MARK: - Pages and counts

    /// Reads `limit` readable rows from the position on. A damaged row is left out and the
    /// rows after it read instead, so a short page still means the end.
    /// A search in an order other than title's with this many matches or more walks the
    /// order's index and probes each row's terms; with fewer it sorts the matches.
    static let sortedMatchesLimit = 2_000

    /// Whether a page of `query` walks its order's index, probing each row for the search's
    /// terms: with many matches a page is found after a few rows, where sorting them reads
    /// every match's row (30 ms for `swift` at 100 k); with few, sorting is cheaper.
    private func walksOrder(
        _ query: CatalogQuery, terms: [String], for learner: UserID?, counted: CatalogCount? = nil, in connection: PostgresConnection,
        logger: Logger
    ) async throws -> Bool {
        guard Self.mayWalkOrder(query, terms: terms) else { return false }
        let total: CatalogCount
        if let counted {
            total = counted
        } else {
            total = try await count(query, terms: terms, for: learner, in: connection, logger: logger)
        }
        switch total {
        case .atLeast: return true
        case .exactly(let count): return count >= Self.sortedMatchesLimit
        }
    }

    /// The query's terms, the rarest first (`TermCounts`): the first is walked in rank order
    /// and the others probed per row, so the walk is as short as the catalog allows. Terms not
    /// counted lately are counted, up to `TermCounts.bound`, in one statement.
    private func orderedTerms(_ query: CatalogQuery, in connection: PostgresConnection, logger: Logger) async throws -> [String] {
        try await termCounts.rarestFirst(PostgresCatalog.terms(of: query)) { missing in
            try await Self.count(missing, in: connection, logger: logger)
        }
    }

    /// How many courses each of `terms` has, up to `TermCounts.bound`, in one statement.
    private static func count(_ terms: [String], in connection: PostgresConnection, logger: Logger) async throws -> [String: Int] {
        var binds = PostgresBindings()
        var columns: [String] = []
        for term in terms {
            binds.append(term)
            binds.append(Int64(TermCounts.bound))
            columns.append(
                "(SELECT count(*) FROM (SELECT 1 FROM course_term WHERE term = $\(binds.count - 1) LIMIT $\(binds.count)) AS counted)")
        }
        let statement = PostgresQuery(unsafeSQL: "SELECT \(columns.joined(separator: ", "))", binds: binds)
        let rows: [PostgresRow] =
            terms.count <= preparedTerms
            ? try await Array(collecting: connection.prepared(statement, logger: logger))
            : try await Array(collecting: connection.query(statement, logger: logger))
        var found: [String: Int] = [:]
        if let row = rows.first {
            var cells = CellReader(row)
            for term in terms { found[term] = try cells.int() }
        }
        return found
    }

    /// Whether the count decides how a page of `query` is read (`walksOrder`).
    private static func mayWalkOrder(_ query: CatalogQuery, terms: [String]) -> Bool {
        query.sort.field != .title && !query.isFavourite && !query.isEnrolled && !terms.isEmpty
            && query.fixedValue(of: query.sort.field) == nil
    }

    /// Queries of at most this many terms run as prepared statements: their shapes are few,
    /// where longer ones would each be a statement kept on every connection.
    static let preparedTerms = 4

    private func rows(
        _ query: CatalogQuery, terms: [String], for learner: UserID?, at position: CatalogPosition, limit: Int, walkingOrder: Bool,
        in connection: PostgresConnection, logger: Logger
    ) async throws -> [CatalogRow] {
        guard walkingOrder, query.sort.field == .level, query.level == nil else {
            if !walkingOrder,
                let listed = try await listedPage(query, terms: terms, at: position, limit: limit, in: connection, logger: logger)
            {
                return listed.rows
            }
            return try await Self.page(
                query, terms: terms, counts: termCounts.counts(of: terms), for: learner, at: position, limit: limit,
                walkingOrder: walkingOrder, in: connection, logger: logger
            ).rows
        }
        // A search with many matches in level order, read as one title-order search per level,
        // as the embedded store does (`SQLiteCourseRepository.levelByLevel`): walking the level
        // index passes every course of a level whose title sorts before the matches.
        var rows: [CatalogRow] = []
        for (level, from) in position.levelByLevel(descending: query.sort.descending) where rows.count < limit {
            var one = query
            one.level = level
            let terms = try await orderedTerms(one, in: connection, logger: logger)
            let found = try await Self.page(
                one, terms: terms, counts: termCounts.counts(of: terms), for: learner, at: from, limit: limit - rows.count,
                in: connection, logger: logger
            ).rows
            rows = position.walk.backwards ? found + rows : rows + found
        }
        return rows
    }

    /// `counts`: the terms' counts (`TermCounts`), which choose the terms merged with the walked
    /// one (`joined`). `alongside`: a scalar subquery read in the same statement, given back
    /// with the rows (nil when no row came to carry it).
    private static func page(
        _ query: CatalogQuery, terms: [String], counts: [String: Int], for learner: UserID?, at position: CatalogPosition, limit: Int,
        walkingOrder: Bool = false, alongside: String? = nil, in connection: PostgresConnection, logger: Logger
    ) async throws -> (rows: [CatalogRow], alongside: Int64?) {
        // In title order every query walks an index in rank order (`Selection`); the whole
        // catalog in another order walks that order's index (value, rank), and a search in
        // another order sorts its matches. Backwards pages are read against the order, then
        // turned around.
        var bound = position.walk.bound
        let backwards = position.walk.backwards
        let sort = query.sort
        let descending = backwards != sort.descending
        let direction = descending ? "DESC" : "ASC"
        var rows: [CatalogRow] = []
        var alongsideValue: Int64?
        let prepared = terms.count <= preparedTerms
        let joining = joined(terms, counts: counts)
        while rows.count < limit {
            let wanted = limit - rows.count
            var selection = Selection(query, terms: terms, learner: learner, walkingOrder: walkingOrder, joining: joining)
            let order: String
            let value: String
            // An order whose value the filters fix is title order within it.
            let fixed = query.fixedValue(of: sort.field)
            if let column = PostgresCatalog.sortColumn(sort), fixed == nil {
                // Matches read through a term or a learner's list are few (`walksOrder`): they
                // are sorted, as an expression no index gives. Given the order's column, the
                // planner walked that index probing every course when it took a rare term for a
                // common one (`cat:Numismatics`, 10 of 1 M courses, in price order: 3.9 s, and
                // past the 5 s limit under load, so never kept by the page cache).
                let sorted = selection.readsCourses ? column : "(\(column) + 0)"
                order = "\(sorted) \(direction), course.sort_rank \(direction)"
                value = "\(column)::bigint"
                if let bound {
                    selection.conditions.append(
                        "(\(column), course.sort_rank) \(descending ? "<" : ">") (\(selection.bind(bound.sortValue ?? 0)), \(selection.bind(bound.rawValue)))"
                    )
                }
            } else {
                order = "\(selection.rank) \(direction)"
                value = "\(fixed.map(String.init) ?? "NULL")::bigint"
                if let bound {
                    let after = selection.bind(bound.rawValue)
                    // The merged terms' lists too: PostgreSQL carries an equality across the join,
                    // not a bound, and read them from their start (a page 30,000 courses deep in
                    // `practical cat:Physik`: 43.7 ms, 3.1 ms bounded both ways).
                    for rank in [selection.rank] + selection.joinedRanks {
                        selection.conditions.append("\(rank) \(descending ? "<" : ">") \(after)")
                    }
                }
            }
            let sql = """
                SELECT \(PostgresCatalog.courseColumns), \(selection.rank), \(value), course.added_seq\(alongside.map { ", \($0)::bigint" } ?? "")
                FROM \(selection.source)
                WHERE \(selection.conditions.joined(separator: " AND "))
                ORDER BY \(order) LIMIT \(selection.bind(Int64(wanted)))
                """
            let start = bound
            var read = 0
            let statement = PostgresQuery(unsafeSQL: sql, binds: selection.binds)
            let found: [PostgresRow] =
                prepared
                ? try await Array(collecting: connection.prepared(statement, logger: logger))
                : try await Array(collecting: connection.query(statement, logger: logger))
            for row in found {
                read += 1
                let cells = row.makeRandomAccess()
                if alongside != nil, alongsideValue == nil {
                    alongsideValue = (try? cells[PostgresCatalog.columnCount + 3].decode(Int64?.self)) ?? nil
                }
                guard let rank = try? cells[PostgresCatalog.columnCount].decode(Int64.self) else { continue }
                let sortValue: Int64? = (try? cells[PostgresCatalog.columnCount + 1].decode(Int64?.self)) ?? nil
                guard sort.field == .title || sortValue != nil else { continue }
                let key = CatalogKey(rank, sortValue: sort.field == .title ? nil : sortValue)
                bound = key
                if let read = PostgresCatalog.catalogRow(row, cells: cells, key: key) { rows.append(read) }
            }
            // The end, or rows so damaged that none gave a place to go on from.
            if read < wanted || bound == start { break }
        }
        return (backwards ? rows.reversed() : rows, alongsideValue)
    }

    /// How many courses match, stopping past the query's limit as the embedded store does;
    /// a count that does not depend on the learner is kept until the catalog changes.
    private func count(_ query: CatalogQuery, terms: [String], for learner: UserID?, in connection: PostgresConnection, logger: Logger)
        async throws -> CatalogCount
    {
        if query.isEverything {
            let rows = try await connection.prepared("SELECT courses FROM catalog_size WHERE id = 1", logger: logger)
            for try await courses in rows.decode(Int.self) { return .exactly(courses) }
            return .exactly(0)
        }
        guard !query.dependsOnLearner else {
            return try await Self.countMatches(
                query, terms: terms, counts: termCounts.counts(of: terms), for: learner, in: connection, logger: logger)
        }
        // Read before counting: a change after it moves the revision, and the count kept
        // under this one is simply not used again.
        var revision: Int64 = 0
        for try await value in try await connection.prepared("SELECT revision FROM catalog_revision WHERE id = 1", logger: logger).decode(
            Int64.self)
        {
            revision = value
        }
        return try await keptCount(query, terms: terms, for: learner, at: revision, in: connection, logger: logger)
    }

    /// The count of a query that depends on no learner, at `revision`: the one kept
    /// (`MatchCounts`), or counted and kept.
    private func keptCount(
        _ query: CatalogQuery, terms: [String], for learner: UserID?, at revision: Int64, in connection: PostgresConnection, logger: Logger
    ) async throws -> CatalogCount {
        if let kept = matchCounts.count(of: query, at: revision) { return kept }
        let count: CatalogCount
        if let listed = try await listedCount(query, terms: terms, at: revision, in: connection, logger: logger) {
            count = listed
        } else {
            count = try await Self.countMatches(
                query, terms: terms, counts: termCounts.counts(of: terms), for: learner, in: connection, logger: logger)
        }
        matchCounts.keep(count, of: query, at: revision)
        return count
    }

    private static func countMatches(
        _ query: CatalogQuery, terms: [String], counts: [String: Int], for learner: UserID?, in connection: PostgresConnection,
        logger: Logger
    ) async throws -> CatalogCount {
        let limit = query.countLimit
        var selection = Selection(query, terms: terms, learner: learner, joining: joined(terms, counts: counts))
        // Words and facets only: the term index alone answers (an index-only scan), no course
        // row is read: 10,000 matches of `swift` cost 30 ms through the courses, 2 ms without.
        let source = selection.onlyTerms ? selection.termsAlone : selection.source
        let sql = """
            SELECT count(*) FROM (SELECT 1 FROM \(source) WHERE \(selection.conditions.joined(separator: " AND "))
            LIMIT \(selection.bind(Int64(limit + 1)))) AS matches
            """
        var count = 0
        let statement = PostgresQuery(unsafeSQL: sql, binds: selection.binds)
        let rows: [PostgresRow] =
            terms.count <= preparedTerms
            ? try await Array(collecting: connection.prepared(statement, logger: logger))
            : try await Array(collecting: connection.query(statement, logger: logger))
        for row in rows { count = try row.decode(Int.self) }
        return count > limit ? .atLeast(limit) : .exactly(count)
    }
}
