import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v8-demo-progress`: the demo learner's starting progress (DemoAccount.progressPlan), only
    /// for a demo account that never enrolled: nobody's own history is rewritten.
    static func v8DemoProgress(_ db: Database) throws {
        guard let demo = try Int64.fetchOne(db, sql: "SELECT id FROM user WHERE email = ?", arguments: [demoEmail]),
            try Int.fetchOne(db, sql: "SELECT count(*) FROM enrollment WHERE user_id = ?", arguments: [demo]) == 0
        else { return }
        for step in DemoAccount.progressPlan(now: Date()) {
            let course = step.courseID.rawValue
            guard let lessons = try Int.fetchOne(db, sql: "SELECT lesson_count FROM course WHERE id = ?", arguments: [course]) else {
                continue
            }
            try db.execute(
                sql:
                    "INSERT INTO enrollment (user_id, course_id, enrolled_at, status, progress, completed_at) VALUES (?, ?, ?, ?, 0, ?)",
                arguments: [demo, course, step.enrolledAt, step.status.rawValue, step.completedAt]
            )
            let enrollment = db.lastInsertedRowID
            for lesson in step.lessons(of: lessons) {
                try db.execute(
                    sql: "INSERT INTO lesson_progress (enrollment_id, position, done_at) VALUES (?, ?, ?)",
                    arguments: [enrollment, lesson.position, lesson.doneAt]
                )
            }
            try db.execute(
                sql: "UPDATE course SET enrolled_count = min(enrolled_count + 1, coalesce(capacity, 10000000)) WHERE id = ?",
                arguments: [course]
            )
        }
    }
}
