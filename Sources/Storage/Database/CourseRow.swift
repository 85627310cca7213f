import Foundation
import GRDB
import Platform
import SharedKernel

/// Mapping between `Course` and its table row; kept inside Storage.
enum CourseRow {
    static let columns = qualifiedColumns(table: "course")

    /// The columns a `Course` is read from, in the order every query selects them first.
    private enum Column {
        static let names = [
            "id", "title", "instructor", "category", "level", "duration_minutes", "price_minor", "currency",
            "capacity", "enrolled_count", "tags", "prerequisite_id", "active", "description", "lesson_count",
        ]
        static let id = at(0), title = at(1), instructor = at(2), category = at(3), level = at(4)
        static let durationMinutes = at(5), priceMinor = at(6), currency = at(7), capacity = at(8)
        static let enrolledCount = at(9), tags = at(10), prerequisiteID = at(11), active = at(12)
        static let description = at(13), lessonCount = at(14)

        private static func at(_ index: Int) -> RowColumn { RowColumn(names[index], at: index) }
    }

    /// How many columns `qualifiedColumns` selects: what a query adds comes after them.
    static var columnCount: Int { Column.names.count }

    /// The columns a `Course` is read from, qualified so they can be joined with other tables.
    /// Every query that reads courses selects these first: `course(from:)` reads by position.
    static func qualifiedColumns(table: String) -> String {
        Column.names.map { "\(table).\($0)" }.joined(separator: ", ")
    }

    /// Throws `courseNotFound` unless the catalog holds `id`: what a write on a course checks first.
    static func requireExisting(_ id: CourseID, in db: Database) throws {
        guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM course WHERE id = ?"), arguments: [id.rawValue]) == true else {
            throw AppError.courseNotFound(id)
        }
    }

    /// Reads one course by id inside a transaction; `DamagedRow` when it is stored out of range.
    static func fetch(_ id: CourseID, in db: Database) throws -> Course? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM course WHERE id = ?"), arguments: [id.rawValue])
            .map(course(from:))
    }

    /// The course a row holds, every value checked against `CourseLimits`. The row starts
    /// with `qualifiedColumns`, in their order.
    static func course(from row: Row) throws -> Course {
        let reader = RowReader(row: row, what: "course \(Self.idText(row).debugDescription)")
        let levelName = try reader.string(Column.level)
        guard let level = CourseLevel(rawValue: levelName) else {
            throw DamagedRow(description: "course \(Self.idText(row).debugDescription): level \(levelName.debugDescription) is unknown")
        }
        let tagsJSON = try reader.string(Column.tags)
        guard let tags = StoredTags.decode(tagsJSON) else {
            throw DamagedRow(description: "course \(Self.idText(row).debugDescription): tags are not a list of strings")
        }
        let course = Course(
            id: CourseID(try reader.string(Column.id)),
            title: try reader.string(Column.title),
            instructor: try reader.string(Column.instructor),
            category: try reader.optionalString(Column.category),
            level: level,
            durationMinutes: try reader.int(Column.durationMinutes),
            price: Price(minorUnits: try reader.int(Column.priceMinor), currency: try reader.string(Column.currency)),
            capacity: try reader.optionalInt(Column.capacity),
            enrolledCount: try reader.int(Column.enrolledCount),
            tags: tags,
            prerequisiteID: try reader.optionalString(Column.prerequisiteID).map { CourseID($0) },
            isActive: try reader.bool(Column.active),
            description: try reader.string(Column.description),
            lessonCount: try reader.int(Column.lessonCount, in: CourseLimits.lessons)
        )
        if let problem = CourseLimits.problem(in: course) {
            throw DamagedRow(description: "course \(Self.idText(row).debugDescription): \(problem)")
        }
        return course
    }

    /// The id a course row holds, for messages about it.
    private static func idText(_ row: Row) -> String {
        (row[0] as DatabaseValue?).flatMap { String.fromDatabaseValue($0) } ?? "?"
    }

    /// The lessons of a course, in order; a course without stored lessons is one lesson named
    /// after it.
    static func lessons(of course: Course, in db: Database) throws -> [Lesson] {
        let id = course.id
        let stored = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT position, title, minutes, question_count FROM lesson WHERE course_id = ? ORDER BY position"),
            arguments: [id.rawValue]
        ).map { row in
            let reader = RowReader(row: row, what: "lesson of \(id.rawValue.debugDescription)")
            return Lesson(
                title: try reader.string("title"), minutes: try reader.int("minutes", in: CourseLimits.minutes),
                questionCount: try reader.int("question_count", in: ContentLimits.questions))
        }
        return stored.isEmpty ? [.only(of: course)] : stored
    }

    /// Replaces the stored lessons of a course, their bodies and questions with them (one row
    /// of `lesson_content` for a lesson that has either; none for a title-only lesson).
    /// `replacing`: whether the course may have lessons stored (a new one has none to delete).
    static func storeLessons(_ lessons: [Lesson], of id: CourseID, replacing: Bool = true, in db: Database) throws {
        if replacing { try db.cachedStatement(sql: "DELETE FROM lesson WHERE course_id = ?").execute(arguments: [id.rawValue]) }
        let insert = try db.cachedStatement(
            sql: "INSERT INTO lesson (course_id, position, title, minutes, question_count) VALUES (?, ?, ?, ?, ?)")
        let insertContent = try db.cachedStatement(
            sql: "INSERT INTO lesson_content (course_id, position, body, questions) VALUES (?, ?, ?, ?)")
        for (offset, lesson) in lessons.enumerated() {
            try insert.execute(arguments: [id.rawValue, offset + 1, lesson.title, lesson.minutes, lesson.questionCount])
            if let content = lesson.content {
                try insertContent.execute(arguments: [id.rawValue, offset + 1, content.body, QuestionsJSON.encode(content.questions)])
            }
        }
    }

    /// The lessons' titles as the schema of v7 kept them, for that migration alone.
    static func storeLessonTitles(_ lessons: [Lesson], of id: CourseID, in db: Database) throws {
        let insert = try db.makeStatement(sql: "INSERT INTO lesson (course_id, position, title, minutes) VALUES (?, ?, ?, ?)")
        for (offset, lesson) in lessons.enumerated() {
            try insert.execute(arguments: [id.rawValue, offset + 1, lesson.title, lesson.minutes])
        }
    }

    /// Inserts a course of the built-in catalog while the first migrations run (before v4 adds
    /// `search_key`, which v4 then fills for these rows).
    static func insertSeed(_ course: Course, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO course (id, title, sort_key, instructor, category, level, duration_minutes,
                    price_minor, currency, capacity, enrolled_count, tags, prerequisite_id, active, description)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: try arguments(for: course, sortKey: SortKey.make(course.title)))
    }

    /// Where an upserted course goes in the catalog order.
    enum Placement {
        /// Its rank now, between its neighbours (a few courses at a time).
        case between
        /// This rank, already final (a bulk import, placed in memory before it is written);
        /// `stored`: whether a course with its id is stored, as the placing read them all
        /// (without a lookup per row, writing a million took 30-31 s against 33-38 s).
        case at(Int64, stored: Bool)
    }

    /// Inserts a course, or updates every field of the stored course with the same id, on the
    /// current schema (`CourseRowWriter` binds its values). The seats learners here already
    /// hold are never given away: the stored count does not drop below them.
    static let upsertSQL = """
        INSERT INTO course (id, title, sort_key, instructor, category, level, duration_minutes,
            price_minor, currency, capacity, enrolled_count, tags, prerequisite_id, active, description,
            lesson_count, sort_rank, search_key, category_key, added_seq)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET
            title = excluded.title, sort_key = excluded.sort_key, instructor = excluded.instructor,
            category = excluded.category, level = excluded.level,
            duration_minutes = excluded.duration_minutes, price_minor = excluded.price_minor,
            currency = excluded.currency, capacity = excluded.capacity,
            enrolled_count = max(excluded.enrolled_count, (
                SELECT count(*) FROM enrollment WHERE course_id = excluded.id AND status != 'dropped')),
            tags = excluded.tags, prerequisite_id = excluded.prerequisite_id, active = excluded.active,
            description = excluded.description, lesson_count = excluded.lesson_count,
            sort_rank = excluded.sort_rank, search_key = excluded.search_key, category_key = excluded.category_key
        """

    /// Inserts the course, or updates the stored one with its id (`upsertSQL`), through
    /// `writer`, and its lessons. `placement` says where it goes in the catalog order.
    /// `addedSeq`: the course's place in the `newest` order if it is new (a stored course keeps
    /// its own); the caller counts them on, so no row asks the table for its largest.
    static func upsert(
        _ entry: CourseEntry, keys: CourseKeys, placement: Placement, addedSeq: Int64, with writer: CourseRowWriter, in db: Database
    ) throws -> (added: Bool, needsRenumbering: Bool) {
        var course = entry.course
        course.lessonCount = entry.lessons?.count ?? 1
        let sortKey = keys.sortKey
        let rank: Int64?
        let stored: Bool
        switch placement {
        case .between:
            let existing = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT sort_key, sort_rank FROM course WHERE id = ?"),
                arguments: [course.id.rawValue]
            )
            stored = existing != nil
            if let existing, existing["sort_key"] == sortKey, let kept: Int64 = existing["sort_rank"] {
                rank = kept
            } else {
                rank = try CatalogOrder.rank(forSortKey: sortKey, id: course.id.rawValue, in: db)
            }
        case .at(let final, let known):
            rank = final
            stored = known
        }
        try writer.write(
            CourseRowWriter.Values(
                course: course, tags: try StoredTags.encode(course.tags), rank: rank, keys: keys, addedSeq: addedSeq))
        // A course without lessons of its own is one lesson named after it: no rows (and a new
        // one has none to replace).
        if stored || entry.lessons?.isEmpty == false {
            try storeLessons(entry.lessons ?? [], of: course.id, replacing: stored, in: db)
        }
        if case .between = placement, rank == nil { return (!stored, true) }
        return (!stored, false)
    }

    private static func arguments(for course: Course, sortKey: String) throws -> StatementArguments {
        let tags = try StoredTags.encode(course.tags)
        return [
            course.id.rawValue, course.title, sortKey, course.instructor,
            course.category, course.level.rawValue, course.durationMinutes, course.price.minorUnits,
            course.price.currency, course.capacity, course.enrolledCount, tags,
            course.prerequisiteID?.rawValue, course.isActive, course.description,
        ]
    }
}
