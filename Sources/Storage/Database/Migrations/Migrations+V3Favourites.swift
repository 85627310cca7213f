import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v3-favourites`: a learner's favourite courses.
    static func v3Favourites(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE favourite (
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    course_id TEXT NOT NULL REFERENCES course(id) ON DELETE CASCADE,
                    created_at DATETIME NOT NULL,
                    PRIMARY KEY (user_id, course_id)
                ) WITHOUT ROWID;
                """)
    }
}
