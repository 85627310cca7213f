import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v7-lessons-and-sane-counts`: syllabi and lesson progress; counts that a damaged import
    /// pushed out of range (a REAL past Int64 once crashed every start) are brought back into
    /// it.
    static func v7LessonsAndSaneCounts(_ db: Database, seedCatalog: () throws -> [CourseEntry]) throws {
        try db.execute(
            sql: """
                ALTER TABLE course ADD COLUMN lesson_count INTEGER NOT NULL DEFAULT 1;
                CREATE TABLE lesson (
                    course_id TEXT NOT NULL REFERENCES course(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL CHECK (position >= 1),
                    title TEXT NOT NULL,
                    minutes INTEGER NOT NULL CHECK (minutes >= 1),
                    PRIMARY KEY (course_id, position)
                ) WITHOUT ROWID;
                ALTER TABLE enrollment ADD COLUMN completed_at DATETIME;
                CREATE TABLE lesson_progress (
                    enrollment_id INTEGER NOT NULL REFERENCES enrollment(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL CHECK (position >= 1),
                    done_at DATETIME NOT NULL,
                    PRIMARY KEY (enrollment_id, position)
                ) WITHOUT ROWID;
                UPDATE course SET enrolled_count = CASE
                        WHEN typeof(enrolled_count) = 'integer' AND enrolled_count < 0 THEN 0
                        ELSE min(coalesce(capacity, 10000000), 10000000) END
                    WHERE typeof(enrolled_count) != 'integer' OR enrolled_count NOT BETWEEN 0 AND 10000000;
                """)
        // The built-in courses get their syllabi, where they are still the built-in course;
        // every other course is one lesson named after it (stored as no rows).
        for entry in try seedCatalog() {
            guard let lessons = entry.lessons,
                let stored = try Row.fetchOne(
                    db, sql: "SELECT title, duration_minutes FROM course WHERE id = ?", arguments: [entry.course.id.rawValue]),
                stored["title"] == entry.course.title, stored["duration_minutes"] == entry.course.durationMinutes
            else { continue }
            try CourseRow.storeLessonTitles(lessons, of: entry.course.id, in: db)
            try db.execute(
                sql: "UPDATE course SET lesson_count = ? WHERE id = ?", arguments: [lessons.count, entry.course.id.rawValue])
        }
    }
}
