import GRDB
import SharedKernel

/// The course catalog in SQLite.
public struct SQLiteCourseRepository: CourseRepository {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Search results are counted up to this many; past it the count is a lower bound.
    static let countLimit = 10_000

    public func page(matching query: String, at position: CatalogPosition, limit: Int) async throws(AppError) -> [CatalogRow] {
        let match: String?
        switch FullTextQuery.parse(query) {
        case .everything: match = nil
        case .nothing: return []
        case .match(let expression): match = expression
        }
        // Both reads walk an index in rank order and stop after `limit` rows: the table's
        // rank index for the whole catalog, the full-text index (whose rowid is the rank)
        // for a search. Backwards pages are read descending, then turned around.
        let bound: Int64?
        let descending: Bool
        switch position {
        case .first: (bound, descending) = (nil, false)
        case .last: (bound, descending) = (nil, true)
        case .after(let key): (bound, descending) = (key.rawValue, false)
        case .before(let key): (bound, descending) = (key.rawValue, true)
        }
        let limit = max(0, limit)
        let rows = try await database.read { db in
            try Self.readPage(match: match, bound: bound, descending: descending, limit: limit, in: db)
        }
        return descending ? rows.reversed() : rows
    }

    /// Reads `limit` decodable rows from `bound` on. A damaged row is left out, and the rows
    /// after it read instead, so the page is still full when the catalog goes on: a short
    /// page means the end.
    static func readPage(match: String?, bound: Int64?, descending: Bool, limit: Int, in db: Database) throws -> [CatalogRow] {
        var rows: [CatalogRow] = []
        var bound = bound
        while rows.count < limit {
            let wanted = limit - rows.count
            let sql = pageSQL(searching: match != nil, bounded: bound != nil, descending: descending)
            var arguments = StatementArguments()
            if let match { _ = arguments.append(contentsOf: [match]) }
            if let bound { _ = arguments.append(contentsOf: [bound]) }
            _ = arguments.append(contentsOf: [wanted])
            let raw = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
            for row in raw {
                guard let key = row["catalog_key"] as Int64? else { continue }
                bound = key
                if let course = try? CourseRow.course(from: row) {
                    rows.append(CatalogRow(key: CatalogKey(key), course: course))
                }
            }
            if raw.count < wanted { break }
        }
        return rows
    }

    /// The page query: arguments are the match expression (when searching), the bound (when
    /// bounded) and the limit.
    static func pageSQL(searching: Bool, bounded: Bool, descending: Bool) -> String {
        let rank = searching ? "course_search.rowid" : "course.sort_rank"
        var conditions = searching ? ["course_search MATCH ?"] : ["course.sort_rank IS NOT NULL"]
        if bounded { conditions.append("\(rank) \(descending ? "<" : ">") ?") }
        let source = searching ? "course_search JOIN course ON course.sort_rank = course_search.rowid" : "course"
        return """
            SELECT \(CourseRow.columns), course.sort_rank AS catalog_key FROM \(source)
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY \(rank) \(descending ? "DESC" : "ASC") LIMIT ?
            """
    }

    public func count(matching query: String) async throws(AppError) -> CatalogCount {
        switch FullTextQuery.parse(query) {
        case .everything:
            return .exactly(try await database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM course") ?? 0 })
        case .nothing:
            return .exactly(0)
        case .match(let expression):
            let limit = Self.countLimit
            let count = try await database.read { db in
                try Int.fetchOne(
                    db,
                    sql: "SELECT count(*) FROM (SELECT rowid FROM course_search WHERE course_search MATCH ? LIMIT ?)",
                    arguments: [expression, limit + 1]
                ) ?? 0
            }
            return count > limit ? .atLeast(limit) : .exactly(count)
        }
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
