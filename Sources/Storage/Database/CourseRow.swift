import Foundation
import GRDB
import SharedKernel

/// Mapping between `Course` and its table row; kept inside Storage.
enum CourseRow {
    static let columns = qualifiedColumns(table: "course")

    /// The columns a `Course` is read from, qualified so they can be joined with other tables.
    static func qualifiedColumns(table: String) -> String {
        [
            "id", "title", "instructor", "category", "level", "duration_minutes", "price_minor", "currency",
            "capacity", "enrolled_count", "tags", "prerequisite_id", "active", "description",
        ].map { "\(table).\($0)" }.joined(separator: ", ")
    }

    /// Reads one course by id inside a transaction.
    static func fetch(_ id: CourseID, in db: Database) throws -> Course? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM course WHERE id = ?", arguments: [id.rawValue])
            .map(course(from:))
    }

    static func course(from row: Row) throws -> Course {
        let levelName: String = row["level"]
        guard let level = CourseLevel(rawValue: levelName) else {
            throw DatabaseError(message: "unknown level \(levelName)")
        }
        let tagsJSON: String = row["tags"]
        let tags = (try? JSONDecoder().decode([String].self, from: Data(tagsJSON.utf8))) ?? []
        let prerequisite: String? = row["prerequisite_id"]
        return Course(
            id: CourseID(row["id"] as String),
            title: row["title"],
            instructor: row["instructor"],
            category: row["category"],
            level: level,
            durationMinutes: row["duration_minutes"],
            price: Price(minorUnits: row["price_minor"], currency: row["currency"]),
            capacity: row["capacity"],
            enrolledCount: row["enrolled_count"],
            tags: tags,
            prerequisiteID: prerequisite.map { CourseID($0) },
            isActive: row["active"],
            description: row["description"]
        )
    }

    /// Inserts the course, or updates every field of the course with the same id.
    /// Returns true when it was new.
    @discardableResult
    static func insertOrUpdate(_ course: Course, in db: Database) throws -> Bool {
        let existed = try Bool.fetchOne(db, sql: "SELECT 1 FROM course WHERE id = ?", arguments: [course.id.rawValue]) ?? false
        let tags = String(decoding: try JSONEncoder().encode(course.tags), as: UTF8.self)
        try db.execute(
            sql: """
                INSERT INTO course (id, title, sort_key, instructor, category, level, duration_minutes,
                    price_minor, currency, capacity, enrolled_count, tags, prerequisite_id, active, description)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET
                    title = excluded.title, sort_key = excluded.sort_key, instructor = excluded.instructor,
                    category = excluded.category, level = excluded.level,
                    duration_minutes = excluded.duration_minutes, price_minor = excluded.price_minor,
                    currency = excluded.currency, capacity = excluded.capacity,
                    enrolled_count = excluded.enrolled_count, tags = excluded.tags,
                    prerequisite_id = excluded.prerequisite_id, active = excluded.active,
                    description = excluded.description
                """,
            arguments: [
                course.id.rawValue, course.title, SortKey.make(course.title), course.instructor,
                course.category, course.level.rawValue, course.durationMinutes, course.price.minorUnits,
                course.price.currency, course.capacity, course.enrolledCount, tags,
                course.prerequisiteID?.rawValue, course.isActive, course.description,
            ]
        )
        // The seed migration runs before v4 added search_key; v4 fills it for those rows.
        if try db.columns(in: "course").contains(where: { $0.name == "search_key" }) {
            try db.execute(
                sql: "UPDATE course SET search_key = ? WHERE id = ?",
                arguments: [SortKey.searchKey(for: course), course.id.rawValue]
            )
        }
        return !existed
    }
}
