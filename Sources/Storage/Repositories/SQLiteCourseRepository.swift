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
        let sql = Self.pageSQL(searching: match != nil, bounded: bound != nil, descending: descending)
        let limit = max(0, limit)
        let rows = try await database.read { db in
            var arguments = StatementArguments()
            if let match { _ = arguments.append(contentsOf: [match]) }
            if let bound { _ = arguments.append(contentsOf: [bound]) }
            _ = arguments.append(contentsOf: [limit])
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                CatalogRow(key: CatalogKey(row["catalog_key"]), course: try CourseRow.course(from: row))
            }
        }
        return descending ? rows.reversed() : rows
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
        let course = try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT \(CourseRow.columns) FROM course WHERE id = ?", arguments: [id.rawValue])
                .map(CourseRow.course(from:))
        }
        guard let course else { throw .courseNotFound(id) }
        return course
    }
}
