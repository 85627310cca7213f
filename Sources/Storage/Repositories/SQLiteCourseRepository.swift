import GRDB
import SharedKernel

/// The course catalog in SQLite.
public struct SQLiteCourseRepository: CourseRepository {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func allCourses() async throws(AppError) -> [Course] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT \(CourseRow.columns) FROM course ORDER BY sort_key, id")
                .map(CourseRow.course(from:))
        }
    }

    public func search(_ query: String) async throws(AppError) -> [Course] {
        let patterns = SortKey.likePatterns(for: query)
        guard !patterns.isEmpty else { return try await allCourses() }
        let conditions = Array(repeating: "search_key LIKE ? ESCAPE '\\'", count: patterns.count).joined(separator: " AND ")
        return try await database.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT \(CourseRow.columns) FROM course WHERE \(conditions) ORDER BY sort_key, id",
                arguments: StatementArguments(patterns)
            )
            .map(CourseRow.course(from:))
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
