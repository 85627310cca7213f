import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v2-enrollments`: a learner's enrollments, one per course.
    static func v2Enrollments(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE enrollment (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    course_id TEXT NOT NULL REFERENCES course(id) ON DELETE CASCADE,
                    enrolled_at DATETIME NOT NULL,
                    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'completed', 'dropped')),
                    progress INTEGER NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
                    UNIQUE (user_id, course_id)
                );
                CREATE INDEX enrollment_by_course ON enrollment(course_id);
                """)
    }
}
