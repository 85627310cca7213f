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
        // JSONSerialization: several times faster than JSONDecoder for a list of strings.
        let tags = (try? JSONSerialization.jsonObject(with: Data(tagsJSON.utf8))) as? [String] ?? []
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

    /// Inserts a course of the built-in catalog while the first migrations run (before v4 adds
    /// `search_key`, which v4 then fills for these rows).
    static func insertSeed(_ course: Course, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO course (id, title, sort_key, instructor, category, level, duration_minutes,
                price_minor, currency, capacity, enrolled_count, tags, prerequisite_id, active, description)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: try arguments(for: course))
    }

    /// Inserts the course, or updates every field of the stored course with the same id, on
    /// the current schema. The seats learners here already hold are never given away: the
    /// stored count does not drop below them. With `placing`, the course gets its rank in
    /// the catalog order now; without, its rank is left empty for a renumbering to fill.
    static func upsert(_ course: Course, placing: Bool, in db: Database) throws -> (added: Bool, needsRenumbering: Bool) {
        let existing = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT sort_key, sort_rank FROM course WHERE id = ?"),
            arguments: [course.id.rawValue]
        )
        let sortKey = SortKey.make(course.title)
        var rank: Int64?
        if placing {
            if let existing, existing["sort_key"] == sortKey, let kept: Int64 = existing["sort_rank"] {
                rank = kept
            } else {
                rank = try CatalogOrder.rank(forSortKey: sortKey, id: course.id.rawValue, in: db)
            }
        }
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO course (id, title, sort_key, instructor, category, level, duration_minutes,
                price_minor, currency, capacity, enrolled_count, tags, prerequisite_id, active, description,
                sort_rank)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET
                title = excluded.title, sort_key = excluded.sort_key, instructor = excluded.instructor,
                category = excluded.category, level = excluded.level,
                duration_minutes = excluded.duration_minutes, price_minor = excluded.price_minor,
                currency = excluded.currency, capacity = excluded.capacity,
                enrolled_count = max(excluded.enrolled_count, (
                    SELECT count(*) FROM enrollment WHERE course_id = excluded.id AND status != 'dropped')),
                tags = excluded.tags, prerequisite_id = excluded.prerequisite_id, active = excluded.active,
                description = excluded.description, sort_rank = excluded.sort_rank
            """)
        var arguments = try arguments(for: course)
        _ = arguments.append(contentsOf: [rank])
        try upsert.execute(arguments: arguments)
        return (existing == nil, placing && rank == nil)
    }

    private static func arguments(for course: Course) throws -> StatementArguments {
        let tags = String(decoding: try JSONSerialization.data(withJSONObject: course.tags), as: UTF8.self)
        return [
            course.id.rawValue, course.title, SortKey.make(course.title), course.instructor,
            course.category, course.level.rawValue, course.durationMinutes, course.price.minorUnits,
            course.price.currency, course.capacity, course.enrolledCount, tags,
            course.prerequisiteID?.rawValue, course.isActive, course.description,
        ]
    }
}
