import Foundation
import GRDB
import SharedKernel

/// Enrollments in SQLite. Every change is one IMMEDIATE transaction that checks the rules
/// against the stored data and moves the seat count with it.
public struct SQLiteEnrollmentRepository: EnrollmentRepository {
    private let database: AppDatabase
    private let now: @Sendable () -> Date

    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    public func enroll(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        let now = self.now()
        return try await database.write { db in
            guard let course = try CourseRow.fetch(courseID, in: db) else { throw AppError.courseNotFound(courseID) }
            let existing = try EnrollmentRow.fetch(userID: userID, courseID: courseID, in: db)
            var prerequisite: (course: Course, completed: Bool)?
            if let prerequisiteID = course.prerequisiteID, let required = try CourseRow.fetch(prerequisiteID, in: db) {
                let status = try EnrollmentRow.fetch(userID: userID, courseID: prerequisiteID, in: db)?.status
                prerequisite = (required, status == .completed)
            }
            if let refusal = EnrollmentRules.refusal(for: course, existing: existing, prerequisite: prerequisite) {
                throw AppError.refused(refusal)
            }
            if existing != nil {
                try db.execute(
                    sql: "UPDATE enrollment SET status = 'active', progress = 0, enrolled_at = ? WHERE user_id = ? AND course_id = ?",
                    arguments: [now, userID.rawValue, courseID.rawValue]
                )
            } else {
                try db.execute(
                    sql: "INSERT INTO enrollment (user_id, course_id, enrolled_at, status, progress) VALUES (?, ?, ?, 'active', 0)",
                    arguments: [userID.rawValue, courseID.rawValue, now]
                )
            }
            try db.execute(sql: "UPDATE course SET enrolled_count = enrolled_count + 1 WHERE id = ?", arguments: [courseID.rawValue])
            guard let enrollment = try EnrollmentRow.fetch(userID: userID, courseID: courseID, in: db) else {
                throw AppError.storage(detail: "enrollment vanished inside its own transaction")
            }
            return enrollment
        }
    }

    public func unenroll(userID: UserID, courseID: CourseID) async throws(AppError) {
        try await database.write { db in
            guard let existing = try EnrollmentRow.fetch(userID: userID, courseID: courseID, in: db), existing.holdsPlace else {
                throw AppError.notEnrolled(courseID)
            }
            try db.execute(
                sql: "UPDATE enrollment SET status = 'dropped' WHERE id = ?", arguments: [existing.id.rawValue]
            )
            try db.execute(
                sql: "UPDATE course SET enrolled_count = max(0, enrolled_count - 1) WHERE id = ?", arguments: [courseID.rawValue]
            )
        }
    }

    public func enrolledCourses(userID: UserID) async throws(AppError) -> [EnrolledCourse] {
        try await database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(CourseRow.qualifiedColumns(table: "course")), \(EnrollmentRow.qualifiedColumns)
                FROM enrollment JOIN course ON course.id = enrollment.course_id
                WHERE enrollment.user_id = ? AND enrollment.status != 'dropped'
                ORDER BY enrollment.enrolled_at DESC, enrollment.id DESC
                """, arguments: [userID.rawValue])
            .map { row in
                EnrolledCourse(course: try CourseRow.course(from: row), enrollment: try EnrollmentRow.enrollment(from: row))
            }
        }
    }

    public func enrollment(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment? {
        try await database.read { db in
            try EnrollmentRow.fetch(userID: userID, courseID: courseID, in: db)
        }
    }
}

/// Mapping of `enrollment` rows; kept inside Storage.
enum EnrollmentRow {
    static let qualifiedColumns = """
        enrollment.id AS enrollment_id, enrollment.user_id AS enrollment_user_id, \
        enrollment.course_id AS enrollment_course_id, enrollment.enrolled_at AS enrollment_enrolled_at, \
        enrollment.status AS enrollment_status, enrollment.progress AS enrollment_progress
        """

    static func fetch(userID: UserID, courseID: CourseID, in db: Database) throws -> Enrollment? {
        try Row.fetchOne(
            db,
            sql: "SELECT \(qualifiedColumns) FROM enrollment WHERE user_id = ? AND course_id = ?",
            arguments: [userID.rawValue, courseID.rawValue]
        ).map(enrollment(from:))
    }

    static func enrollment(from row: Row) throws -> Enrollment {
        let statusName: String = row["enrollment_status"]
        guard let status = EnrollmentStatus(rawValue: statusName) else {
            throw DatabaseError(message: "unknown enrollment status \(statusName)")
        }
        return Enrollment(
            id: EnrollmentID(row["enrollment_id"]),
            userID: UserID(row["enrollment_user_id"]),
            courseID: CourseID(row["enrollment_course_id"] as String),
            enrolledAt: row["enrollment_enrolled_at"],
            status: status,
            progress: row["enrollment_progress"]
        )
    }
}
