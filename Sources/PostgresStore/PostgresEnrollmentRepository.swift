import Foundation
import Logging
import PostgresNIO
import SharedKernel

/// Enrollments in PostgreSQL: the SQL of the SharedKernel's enrollment changes.
public struct PostgresEnrollmentRepository: EnrollmentRepository, EnrollmentTransactions {
    private let database: PostgresDatabase
    public let now: @Sendable () -> Date

    public init(database: PostgresDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    /// One transaction: the learner's row locked as a queued batch locks it (the batch reads
    /// its items' times once, unlocked, and writes them last: a mark committed meanwhile would
    /// be undone by an older one), then the facts under `access`'s row locks, the rules'
    /// decision, its SQL, the enrollment as stored.
    public func run(_ change: some EnrollmentChange) async throws(AppError) -> Enrollment {
        let logger = database.logger
        let now = now()
        return try await database.transaction(.saving, learner: change.userID) { connection in
            let changes = try await Self.decideAndApply(change, in: connection, logger: logger)
            if let mark = change as? MarkLesson {
                try await PostgresMergeTimes.stampNow(
                    .lesson(mark.courseID, number: mark.number, done: mark.done), userID: mark.userID, at: now, in: connection,
                    logger: logger)
            }
            guard let stored = try await Self.enrollment(userID: change.userID, courseID: change.courseID, in: connection, logger: logger)
            else {
                throw AppError.storage(.saving, detail: "enrollment vanished inside its own transaction")
            }
            try await PostgresChangeRows.record(changes, in: connection, logger: logger)
            return stored
        }
    }

    /// `run`'s work for an operation, inside its transaction: nothing read back.
    static func write(_ change: some EnrollmentChange, in connection: PostgresConnection, logger: Logger) async throws {
        try await PostgresChangeRows.record(
            try await decideAndApply(change, in: connection, logger: logger), in: connection, logger: logger)
    }

    /// The change decided on the facts read (a refusal is thrown before any write), then
    /// written; gives the changes to note.
    private static func decideAndApply(_ change: some EnrollmentChange, in connection: PostgresConnection, logger: Logger) async throws
        -> [Change]
    {
        let write = try change.decide(try await Self.facts(for: change, in: connection, logger: logger))
        try await Self.apply(write, in: connection, logger: logger)
        var changes: [Change] = [.enrollment(change.userID, change.courseID)]
        if write.movesSeats { changes.append(.course(change.courseID)) }
        return changes
    }

    /// Joining or leaving locks the course's row (`FOR UPDATE`), so two changes of its seats,
    /// from any server, take turns and the last seat goes once. Every caller holds the
    /// learner's row (`run`, a queued batch), and so does every other writer of a learner's
    /// enrollments' status and lessons (the answer route; an import moves only their courses'
    /// rank): two marks of one enrollment take turns without its own lock, and the
    /// enrollment is read with its lessons done in one statement.
    private static func facts(for change: some EnrollmentChange, in connection: PostgresConnection, logger: Logger) async throws
        -> EnrollmentFacts?
    {
        let seats = change.access == .seats
        guard let course = try await PostgresCourseRepository.course(change.courseID, locking: seats, in: connection, logger: logger) else {
            return nil
        }
        let enrollment = try await Self.enrollment(userID: change.userID, courseID: course.id, in: connection, logger: logger)
        var facts = EnrollmentFacts(course: course, enrollment: enrollment)
        if seats, let prerequisiteID = course.prerequisiteID,
            let required = try await PostgresCourseRepository.course(prerequisiteID, in: connection, logger: logger)
        {
            facts.prerequisite = (
                required, try await Self.enrollment(userID: change.userID, courseID: prerequisiteID, in: connection, logger: logger)
            )
        }
        return facts
    }

    private static func apply(_ write: EnrollmentWrite, in connection: PostgresConnection, logger: Logger) async throws {
        switch write {
        case .join(let userID, let courseID, let at):
            try await connection.prepared(
                """
                INSERT INTO enrollment (user_id, course_id, course_rank, enrolled_at, active_at, status)
                SELECT \(userID.rawValue), id, sort_rank, \(at), \(at), 'active' FROM course WHERE id = \(courseID.rawValue)
                """,
                logger: logger
            )
            try await takeSeat(courseID, in: connection, logger: logger)
        case .rejoin(let id, let courseID, let at, let status):
            try await connection.prepared(
                "UPDATE enrollment SET status = \(status.rawValue), enrolled_at = \(at), active_at = \(at) WHERE id = \(id.rawValue)",
                logger: logger)
            try await takeSeat(courseID, in: connection, logger: logger)
        case .leave(let id, let courseID):
            try await connection.prepared("UPDATE enrollment SET status = 'dropped' WHERE id = \(id.rawValue)", logger: logger)
            try await connection.prepared(
                "UPDATE course SET enrolled_count = greatest(0, enrolled_count - 1) WHERE id = \(courseID.rawValue)", logger: logger
            )
        case .markLesson(let id, let number, let done, let at, let status, let completedAt):
            // The lesson's row and the enrollment's in one statement (two tables, one row each).
            let progress: PostgresQuery =
                if done {
                    """
                    WITH progress AS (
                        INSERT INTO lesson_progress (enrollment_id, position, done_at) VALUES (\(id.rawValue), \(number), \(at))
                        ON CONFLICT DO NOTHING
                    )
                    UPDATE enrollment SET status = \(status.rawValue), completed_at = \(completedAt), active_at = \(at)
                    WHERE id = \(id.rawValue)
                    """
                } else {
                    """
                    WITH progress AS (DELETE FROM lesson_progress WHERE enrollment_id = \(id.rawValue) AND position = \(number))
                    UPDATE enrollment SET status = \(status.rawValue), completed_at = \(completedAt), active_at = \(at)
                    WHERE id = \(id.rawValue)
                    """
                }
            try await connection.prepared(progress, logger: logger)
        }
    }

    /// The rules saw a seat left, under the course's lock.
    private static func takeSeat(_ courseID: CourseID, in connection: PostgresConnection, logger: Logger) async throws {
        try await connection.prepared(
            "UPDATE course SET enrolled_count = enrolled_count + 1 WHERE id = \(courseID.rawValue)", logger: logger)
    }

    public func enrolledCourses(userID: UserID) async throws(AppError) -> [EnrolledCourse] {
        try await enrolledCourses(userID: userID, among: nil)
    }

    public func enrolledCourses(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [EnrolledCourse] {
        guard !ids.isEmpty else { return [] }
        return try await enrolledCourses(userID: userID, among: Optional(ids))
    }

    /// The whole list (`ids` nil), or the enrollments in those courses. Two statement texts
    /// rather than an optional bind: a prepared statement's first call fixes its types.
    private func enrolledCourses(userID: UserID, among ids: [CourseID]?) async throws(AppError) -> [EnrolledCourse] {
        let logger = database.logger
        let among = ids.map { Array(Set($0.map(\.rawValue))) }
        return try await database.read { connection in
            var done: [Int64: Set<Int>] = [:]
            let progressQuery: PostgresQuery =
                if let among {
                    """
                    SELECT lesson_progress.enrollment_id, lesson_progress.position FROM lesson_progress
                    JOIN enrollment ON enrollment.id = lesson_progress.enrollment_id
                    WHERE enrollment.user_id = \(userID.rawValue) AND enrollment.course_id = ANY(\(among)) AND \(unescaped: Self.isListed)
                    """
                } else {
                    """
                    SELECT lesson_progress.enrollment_id, lesson_progress.position FROM lesson_progress
                    JOIN enrollment ON enrollment.id = lesson_progress.enrollment_id
                    WHERE enrollment.user_id = \(userID.rawValue) AND \(unescaped: Self.isListed)
                    """
                }
            let progress = try await connection.prepared(progressQuery, logger: logger)
            for try await (enrollment, position) in progress.decode((Int64, Int).self) {
                done[enrollment, default: []].insert(position)
            }
            let rowsQuery: PostgresQuery =
                if let among {
                    """
                    SELECT \(unescaped: PostgresCatalog.courseColumns), \(unescaped: Self.enrollmentColumns)
                    FROM enrollment JOIN course ON course.id = enrollment.course_id
                    WHERE enrollment.user_id = \(userID.rawValue) AND enrollment.course_id = ANY(\(among)) AND \(unescaped: Self.isListed)
                    ORDER BY coalesce(enrollment.active_at, enrollment.enrolled_at) DESC, enrollment.id DESC
                    """
                } else {
                    """
                    SELECT \(unescaped: PostgresCatalog.courseColumns), \(unescaped: Self.enrollmentColumns)
                    FROM enrollment JOIN course ON course.id = enrollment.course_id
                    WHERE enrollment.user_id = \(userID.rawValue) AND \(unescaped: Self.isListed)
                    ORDER BY coalesce(enrollment.active_at, enrollment.enrolled_at) DESC, enrollment.id DESC
                    """
                }
            let rows = try await connection.prepared(rowsQuery, logger: logger)
            var list: [EnrolledCourse] = []
            for try await row in rows {
                // A damaged course is left out of the list, not fatal to it.
                guard let course = try? PostgresCatalog.course(row) else { continue }
                var enrollment = try Self.enrollment(row, from: PostgresCatalog.columnCount)
                enrollment.lessonsDone = done[enrollment.id.rawValue] ?? []
                list.append(EnrolledCourse(course: course, enrollment: enrollment))
            }
            return list
        }
    }

    public func enrolledCourse(userID: UserID, courseID: CourseID) async throws(AppError) -> EnrolledCourse? {
        let logger = database.logger
        return try await database.read { connection in
            guard let enrollment = try await Self.enrollment(userID: userID, courseID: courseID, in: connection, logger: logger),
                enrollment.isListed,
                let course = try await PostgresCourseRepository.course(courseID, in: connection, logger: logger)
            else { return nil }
            return EnrolledCourse(course: course, enrollment: enrollment)
        }
    }

    // MARK: - Rows

    /// `Enrollment.isListed` in SQL: holds a place, or was completed once.
    static let isListed = "(enrollment.status <> 'dropped' OR enrollment.completed_at IS NOT NULL)"

    static let enrollmentColumns =
        """
        enrollment.id, enrollment.user_id, enrollment.course_id, enrollment.enrolled_at, enrollment.status, enrollment.completed_at, \
        enrollment.active_at
        """
    static let enrollmentColumnCount = 7

    /// The learner's enrollment in a course with its lessons done, in one round trip.
    static func enrollment(userID: UserID, courseID: CourseID, in connection: PostgresConnection, logger: Logger) async throws
        -> Enrollment?
    {
        let rows = try await connection.prepared(
            """
            SELECT \(unescaped: enrollmentColumns), \(unescaped: lessonsDone)
            FROM enrollment WHERE user_id = \(userID.rawValue) AND course_id = \(courseID.rawValue)
            """,
            logger: logger
        )
        var found: Enrollment?
        for try await row in rows {
            var enrollment = try enrollment(row, from: 0)
            enrollment.lessonsDone = Set(try row.makeRandomAccess()[enrollmentColumnCount].decode([Int].self))
            found = enrollment
        }
        return found
    }

    /// The positions of an enrollment's lessons done, as a column of the enrollment's row.
    private static let lessonsDone = "ARRAY(SELECT position FROM lesson_progress WHERE lesson_progress.enrollment_id = enrollment.id)"

    /// The enrollment whose columns (`enrollmentColumns`) start at `first`; without lessons.
    static func enrollment(_ row: PostgresRow, from first: Int) throws -> Enrollment {
        let cells = row.makeRandomAccess()
        let statusName = try cells[first + 4].decode(String.self)
        guard let status = EnrollmentStatus(rawValue: statusName) else {
            throw AppError.storage(.reading, detail: "enrollment: status \(statusName.debugDescription) is unknown")
        }
        return Enrollment(
            id: EnrollmentID(try cells[first].decode(Int64.self)),
            userID: UserID(try cells[first + 1].decode(Int64.self)),
            courseID: CourseID(try cells[first + 2].decode(String.self)),
            enrolledAt: try cells[first + 3].decode(Date.self),
            status: status,
            completedAt: try cells[first + 5].decode(Date?.self),
            lastActiveAt: try cells[first + 6].decode(Date?.self)
        )
    }
}

/// Favourites in PostgreSQL, one row per learner and course; setting one twice is a no-op.
public struct PostgresFavouritesRepository: FavouritesRepository {
    private let database: PostgresDatabase

    public init(database: PostgresDatabase) {
        self.database = database
    }

    public func setFavourite(_ isFavourite: Bool, userID: UserID, courseID: CourseID) async throws(AppError) {
        let now = Date()
        let logger = database.logger
        // After a queued batch of the learner's, as `PostgresEnrollmentRepository.run`. A
        // refusal rolls the time back with the change.
        try await database.transaction(.saving, learner: userID) { connection in
            try await PostgresMergeTimes.stampNow(
                .favourite(courseID, isFavourite: isFavourite), userID: userID, at: now, in: connection, logger: logger)
            try await Self.set(isFavourite, userID: userID, courseID: courseID, at: now, in: connection, logger: logger)
        }
    }

    /// `setFavourite`'s work inside its transaction, in one statement: the course is looked up
    /// with the write, so one that is gone is refused with nothing written. (A queued batch
    /// decides its favourites in memory: `OperationBatch.favourite`.)
    private static func set(
        _ isFavourite: Bool, userID: UserID, courseID: CourseID, at now: Date, in connection: PostgresConnection, logger: Logger
    ) async throws {
        let statement: PostgresQuery =
            if isFavourite {
                """
                WITH target AS (SELECT id, sort_rank FROM course WHERE id = \(courseID.rawValue)),
                changed AS (
                    INSERT INTO favourite (user_id, course_id, course_rank, created_at)
                    SELECT \(userID.rawValue), id, sort_rank, \(now) FROM target
                    ON CONFLICT DO NOTHING
                    RETURNING 1
                )
                SELECT EXISTS (SELECT 1 FROM target), EXISTS (SELECT 1 FROM changed)
                """
            } else {
                """
                WITH target AS (SELECT id FROM course WHERE id = \(courseID.rawValue)),
                changed AS (DELETE FROM favourite WHERE user_id = \(userID.rawValue) AND course_id = \(courseID.rawValue) RETURNING 1)
                SELECT EXISTS (SELECT 1 FROM target), EXISTS (SELECT 1 FROM changed)
                """
            }
        let found = try await connection.prepared(statement, logger: logger).decode((Bool, Bool).self).first { _ in true }
        guard let (exists, changed) = found, exists else { throw AppError.courseNotFound(courseID) }
        // Noted only when it changed something.
        if changed { try await PostgresChangeRows.record([.favourite(userID, courseID)], in: connection, logger: logger) }
    }

    public func favourites(userID: UserID) async throws(AppError) -> [Course] {
        let logger = database.logger
        return try await database.read { connection in
            let rows = try await connection.prepared(
                """
                SELECT \(unescaped: PostgresCatalog.courseColumns) FROM favourite JOIN course ON course.id = favourite.course_id
                WHERE favourite.user_id = \(userID.rawValue) ORDER BY course.sort_rank
                """,
                logger: logger
            )
            var courses: [Course] = []
            for try await row in rows {
                if let course = try? PostgresCatalog.course(row) { courses.append(course) }  // a damaged course is left out
            }
            return courses
        }
    }

    public func favourites(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [Course] {
        guard !ids.isEmpty else { return [] }
        let logger = database.logger
        let among = Array(Set(ids.map(\.rawValue)))
        return try await database.read { connection in
            let rows = try await connection.prepared(
                """
                SELECT \(unescaped: PostgresCatalog.courseColumns) FROM favourite JOIN course ON course.id = favourite.course_id
                WHERE favourite.user_id = \(userID.rawValue) AND favourite.course_id = ANY(\(among)) ORDER BY course.sort_rank
                """,
                logger: logger
            )
            var courses: [Course] = []
            for try await row in rows {
                if let course = try? PostgresCatalog.course(row) { courses.append(course) }  // a damaged course is left out
            }
            return courses
        }
    }

    public func favourite(userID: UserID, courseID: CourseID) async throws(AppError) -> Course? {
        let logger = database.logger
        return try await database.read { connection in
            let rows = try await connection.prepared(
                """
                SELECT \(unescaped: PostgresCatalog.courseColumns) FROM favourite JOIN course ON course.id = favourite.course_id
                WHERE favourite.user_id = \(userID.rawValue) AND favourite.course_id = \(courseID.rawValue)
                """,
                logger: logger
            )
            for try await row in rows { return try PostgresCatalog.course(row) }
            return nil
        }
    }
}
