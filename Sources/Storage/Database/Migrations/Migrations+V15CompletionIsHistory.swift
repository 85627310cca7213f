import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v15-completion-is-history`: a completion is permanent history: prerequisites are met,
    /// and the learner's list keeps a course left after completing it, by `completed_at` alone.
    /// Every completed row the app wrote has its date; one written otherwise gets its last
    /// lesson's (else its enrollment's), so it still meets the prerequisites it met. Left rows
    /// keep their lessons and date, as they always did: joining again now brings them back.
    static func v15CompletionIsHistory(_ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE enrollment SET completed_at = coalesce(
                    (SELECT max(done_at) FROM lesson_progress WHERE lesson_progress.enrollment_id = enrollment.id), enrolled_at)
                WHERE status = 'completed' AND completed_at IS NULL
                """)
    }
}
