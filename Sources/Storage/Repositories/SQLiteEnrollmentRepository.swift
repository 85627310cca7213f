import Foundation
import GRDB
import SharedKernel

/// Enrollments in SQLite: the SQL of the SharedKernel's enrollment changes, each in one
/// IMMEDIATE transaction.
public struct SQLiteEnrollmentRepository: EnrollmentRepository, EnrollmentTransactions {
    private let database: AppDatabase
    public let now: @Sendable () -> Date

    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    /// One IMMEDIATE transaction: the facts, the rules' decision, its SQL, the enrollment as
    /// stored (dates to the millisecond, so what the caller shows is what is kept). The write
    /// lock is the whole database's, so `access` needs no row locks here.
    public func run(_ change: some EnrollmentChange) async throws(AppError) -> Enrollment {
        let now = now()
        return try await database.write { db in
            let stored = try Self.run(change, in: db)
            if let mark = change as? MarkLesson {
                try MergeTimes.stampNow(.lesson(mark.courseID, number: mark.number, done: mark.done), userID: mark.userID, at: now, in: db)
            }
            return stored
        }
    }

    /// `run`'s work inside a write transaction (an operation's, too).
    static func run(_ change: some EnrollmentChange, in db: Database) throws -> Enrollment {
        try write(change, in: db)
        guard let stored = try EnrollmentRow.fetch(userID: change.userID, courseID: change.courseID, in: db) else {
            throw AppError.storage(.saving, detail: "enrollment vanished inside its own transaction")
        }
        return stored
    }

    /// `run` without reading the enrollment back, for a queued operation, whose answer
    /// does not carry it.
    static func write(_ change: some EnrollmentChange, in db: Database) throws {
        let write = try change.decide(try Self.facts(for: change, in: db))
        try Self.apply(write, in: db)
        try ChangeRows.record(.enrollment(change.userID, change.courseID), in: db)
        if write.movesSeats { try ChangeRows.record(.course(change.courseID), in: db) }
    }

    private static func facts(for change: some EnrollmentChange, in db: Database) throws -> EnrollmentFacts? {
        guard let course = try course(change.courseID, in: db) else { return nil }
        var facts = EnrollmentFacts(course: course, enrollment: try EnrollmentRow.fetch(userID: change.userID, courseID: course.id, in: db))
        if change.access == .seats, let prerequisiteID = course.prerequisiteID, let required = try Self.course(prerequisiteID, in: db) {
            facts.prerequisite = (required, try EnrollmentRow.fetch(userID: change.userID, courseID: prerequisiteID, in: db))
        }
        return facts
    }

    private static func apply(_ write: EnrollmentWrite, in db: Database) throws {
        switch write {
        case .join(let userID, let courseID, let at):
            try db.cachedStatement(
                sql: """
                    INSERT INTO enrollment (user_id, course_id, enrolled_at, active_at, status, progress) VALUES (?, ?, ?, ?, 'active', 0)
                    """
            ).execute(arguments: [userID.rawValue, courseID.rawValue, at, at]
            )
            try takeSeat(courseID, in: db)
        case .rejoin(let id, let courseID, let at, let status):
            try db.cachedStatement(sql: "UPDATE enrollment SET status = ?, enrolled_at = ?, active_at = ? WHERE id = ?").execute(
                arguments: [status.rawValue, at, at, id.rawValue])
            try takeSeat(courseID, in: db)
        case .leave(let id, let courseID):
            try db.cachedStatement(sql: "UPDATE enrollment SET status = 'dropped' WHERE id = ?").execute(arguments: [id.rawValue])
            try db.cachedStatement(sql: "UPDATE course SET enrolled_count = max(0, enrolled_count - 1) WHERE id = ?").execute(arguments: [
                courseID.rawValue
            ]
            )
        case .markLesson(let id, let number, let done, let at, let status, let completedAt):
            if done {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO lesson_progress (enrollment_id, position, done_at) VALUES (?, ?, ?)")
                    .execute(arguments: [id.rawValue, number, at]
                    )
            } else {
                try db.cachedStatement(sql: "DELETE FROM lesson_progress WHERE enrollment_id = ? AND position = ?").execute(arguments: [
                    id.rawValue, number,
                ])
            }
            try db.cachedStatement(sql: "UPDATE enrollment SET status = ?, completed_at = ?, active_at = ? WHERE id = ?").execute(
                arguments: [status.rawValue, completedAt, at, id.rawValue]
            )
        }
    }

    /// The rules saw a seat left, so the count stays within CourseLimits.seats.
    private static func takeSeat(_ courseID: CourseID, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE course SET enrolled_count = enrolled_count + 1 WHERE id = ?").execute(arguments: [
            courseID.rawValue
        ])
    }

    public func enrolledCourses(userID: UserID) async throws(AppError) -> [EnrolledCourse] {
        try await enrolledCourses(userID: userID, among: nil)
    }

    public func enrolledCourses(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [EnrolledCourse] {
        guard !ids.isEmpty else { return [] }
        return try await enrolledCourses(userID: userID, among: Optional(ids))
    }

    /// The whole list (`ids` nil), or the enrollments in those courses.
    private func enrolledCourses(userID: UserID, among ids: [CourseID]?) async throws(AppError) -> [EnrolledCourse] {
        let among = ids.map { Array(Set($0.map(\.rawValue))) }
        return try await database.read { db in
            let done = try EnrollmentRow.lessonsDone(userID: userID, among: among, in: db)
            return try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT \(CourseRow.qualifiedColumns(table: "course")), \(EnrollmentRow.qualifiedColumns)
                        FROM enrollment JOIN course ON course.id = enrollment.course_id
                        WHERE enrollment.user_id = ? \(among == nil ? "" : EnrollmentRow.amongCourses) AND \(EnrollmentRow.isListed)
                        ORDER BY coalesce(enrollment.active_at, enrollment.enrolled_at) DESC, enrollment.id DESC
                        """),
                arguments: try EnrollmentRow.arguments(userID, among: among)
            )
            .compactMap { row in
                // A damaged course is left out of the list, not fatal to it.
                guard let course = try? CourseRow.course(from: row) else { return nil }
                var enrollment = try EnrollmentRow.enrollment(from: row)
                enrollment.lessonsDone = done[enrollment.id] ?? []
                return EnrolledCourse(course: course, enrollment: enrollment)
            }
        }
    }

    public func enrolledCourse(userID: UserID, courseID: CourseID) async throws(AppError) -> EnrolledCourse? {
        try await database.read { db in
            guard let enrollment = try EnrollmentRow.fetch(userID: userID, courseID: courseID, in: db), enrollment.isListed,
                let course = try Self.course(courseID, in: db)
            else { return nil }
            return EnrolledCourse(course: course, enrollment: enrollment)
        }
    }

    /// A course for the rules; a damaged one is refused as a storage failure, not a trap.
    private static func course(_ id: CourseID, in db: Database) throws -> Course? {
        do {
            return try CourseRow.fetch(id, in: db)
        } catch let damaged as DamagedRow {
            throw AppError.storage(.reading, detail: damaged.description)
        }
    }
}

/// Mapping of `enrollment` rows; kept inside Storage.
enum EnrollmentRow {
    static let qualifiedColumns = """
        enrollment.id AS enrollment_id, enrollment.user_id AS enrollment_user_id, \
        enrollment.course_id AS enrollment_course_id, enrollment.enrolled_at AS enrollment_enrolled_at, \
        enrollment.status AS enrollment_status, enrollment.completed_at AS enrollment_completed_at, \
        enrollment.active_at AS enrollment_active_at
        """

    /// The courses of a list given as one JSON argument (`arguments(_:among:)`): one statement,
    /// prepared once per connection, for any number of them, where a placeholder each made a
    /// statement of every length, prepared anew on every request (GRDB's authorizer reading
    /// every column was 10 % of the server's time on `GET /v1/me/enrollments`).
    static let amongCourses = "AND enrollment.course_id IN (SELECT value FROM json_each(?))"

    /// The learner, then the courses as a JSON list when there are any.
    static func arguments(_ userID: UserID, among: [String]?) throws -> StatementArguments {
        var arguments: StatementArguments = [userID.rawValue]
        if let among { _ = arguments.append(contentsOf: [try StoredTags.encode(among)]) }
        return arguments
    }

    /// `Enrollment.isListed` in SQL: holds a place, or was completed once.
    static let isListed = "(enrollment.status != 'dropped' OR enrollment.completed_at IS NOT NULL)"

    static func fetch(userID: UserID, courseID: CourseID, in db: Database) throws -> Enrollment? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(qualifiedColumns) FROM enrollment WHERE user_id = ? AND course_id = ?"),
                arguments: [userID.rawValue, courseID.rawValue]
            )
        else { return nil }
        var enrollment = try enrollment(from: row)
        enrollment.lessonsDone = Set(
            try Int.fetchAll(
                db.cachedStatement(sql: "SELECT position FROM lesson_progress WHERE enrollment_id = ?"),
                arguments: [enrollment.id.rawValue]
            ))
        return enrollment
    }

    /// The lessons done in every enrollment of a learner, by enrollment.
    /// The lessons done of the learner's listed enrollments, or of those in the courses `among`.
    static func lessonsDone(userID: UserID, among: [String]? = nil, in db: Database) throws -> [EnrollmentID: Set<Int>] {
        var done: [EnrollmentID: Set<Int>] = [:]
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT lesson_progress.enrollment_id, lesson_progress.position FROM lesson_progress
                    JOIN enrollment ON enrollment.id = lesson_progress.enrollment_id
                    WHERE enrollment.user_id = ? \(among == nil ? "" : amongCourses) AND \(isListed)
                    """),
            arguments: try arguments(userID, among: among))
        for row in rows {
            let reader = RowReader(row: row, what: "lesson progress")
            done[EnrollmentID(try reader.int64("enrollment_id")), default: []].insert(try reader.int("position"))
        }
        return done
    }

    /// The enrollment in a row, without its lessons done (read separately).
    static func enrollment(from row: Row) throws -> Enrollment {
        let reader = RowReader(row: row, what: "enrollment")
        let statusName = try reader.string("enrollment_status")
        guard let status = EnrollmentStatus(rawValue: statusName) else {
            throw DamagedRow(description: "enrollment: status \(statusName.debugDescription) is unknown")
        }
        return Enrollment(
            id: EnrollmentID(try reader.int64("enrollment_id")),
            userID: UserID(try reader.int64("enrollment_user_id")),
            courseID: CourseID(try reader.string("enrollment_course_id")),
            enrolledAt: try reader.date("enrollment_enrolled_at"),
            status: status,
            completedAt: try reader.optionalDate("enrollment_completed_at"),
            lastActiveAt: try reader.optionalDate("enrollment_active_at")
        )
    }
}
