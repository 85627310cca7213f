import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v18-last-activity`: my courses is ordered by last activity: joining, a lesson marked, a
    /// question answered. Rows from before it start at their latest lesson done, else their
    /// joining.
    static func v18LastActivity(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE enrollment ADD COLUMN active_at DATETIME;
                UPDATE enrollment SET active_at = max(enrolled_at, coalesce(
                    (SELECT max(done_at) FROM lesson_progress WHERE lesson_progress.enrollment_id = enrollment.id), enrolled_at));
                """)
    }
}
