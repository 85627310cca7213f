import Foundation
import Logging
import PostgresNIO
import SharedKernel

/// The enrollments a batch of queued operations marks lessons of or answers in, merged in memory: each
/// course with the learner's enrollment and its lessons done read in one statement (the batch
/// holds the learner's row, as every writer of a learner's enrollments does), each mark
/// decided by `MarkLesson` on that state as the statements did, and what changed written in
/// one statement at the batch's end. A mark cost three statements (the course, the enrollment,
/// the write), each a round trip through PostgresNIO.
///
/// Joining and leaving read and write enrollments in the database: what is pending is written
/// first, and read again when a later mark or answer needs it.
struct BatchEnrollments {
    /// Each course read: its row, nil for one that is gone or damaged.
    private var courseRows: [CourseID: Course?] = [:]
    /// The learner's enrollments in them, as the batch's marks and answers left them.
    private var enrollments: [CourseID: Enrollment] = [:]
    /// The lessons the batch changed, per enrollment: the time of one it marked done, nil for
    /// one it marked not done.
    private var lessons: [EnrollmentID: [Int: Date?]] = [:]
    /// The enrollments the batch changed, as they are now.
    private var changed: [EnrollmentID: Enrollment] = [:]
    private let courses: Set<CourseID>
    /// The courses whose rows `PostgresCatalog.course` refuses: a mark in one fails (an answer
    /// needs only the enrollment, as its own statements read it).
    private var damaged: Set<CourseID> = []

    init(_ operations: [SyncOperation]) {
        courses = Set(
            operations.compactMap {
                switch $0.kind {
                case .lesson(let courseID, _, _): courseID
                case .answer(let ref, _, _): ref.courseID
                case .favourite, .enroll, .unenroll, .name, .review, .undoReview: nil
                }
            })
    }

    /// Reads the courses the batch marks lessons of or answers in that are not in memory: all of
    /// them at its start, one again after a join or a leave (`write`). Nothing when they all are.
    mutating func read(_ only: CourseID? = nil, userID: UserID, in connection: PostgresConnection, logger: Logger) async throws {
        let wanted = (only.map { [$0] } ?? Array(courses)).filter { courseRows[$0] == nil }
        guard !wanted.isEmpty else { return }
        for courseID in wanted { courseRows[courseID] = .some(nil) }
        let rows = try await connection.query(
            """
            SELECT \(unescaped: PostgresCatalog.courseColumns), \(unescaped: PostgresEnrollmentRepository.enrollmentColumns),
                ARRAY(SELECT position FROM lesson_progress WHERE lesson_progress.enrollment_id = enrollment.id)
            FROM course LEFT JOIN enrollment ON enrollment.course_id = course.id AND enrollment.user_id = \(userID.rawValue)
            WHERE course.id = ANY(\(wanted.map(\.rawValue))::text[])
            """, logger: logger)
        for try await row in rows {
            let cells = row.makeRandomAccess()
            let courseID = CourseID(try cells[0].decode(String.self))
            let first = PostgresCatalog.columnCount
            if try cells[first].decode(Int64?.self) != nil {
                var enrollment = try PostgresEnrollmentRepository.enrollment(row, from: first)
                enrollment.lessonsDone = Set(try cells[first + PostgresEnrollmentRepository.enrollmentColumnCount].decode([Int].self))
                enrollments[courseID] = enrollment
            }
            // A damaged course fails only the operation that needs it, as its own read did: a
            // batch resent with it recorded, or superseded, still answers.
            if let course = try? PostgresCatalog.course(row) { courseRows[courseID] = course } else { damaged.insert(courseID) }
        }
    }

    /// A lesson marked done or not at `time`, decided as `PostgresEnrollmentRepository` decides
    /// it (a refusal is thrown before anything changes).
    mutating func mark(_ change: MarkLesson) throws {
        let courseID = change.courseID
        if damaged.contains(courseID) { throw AppError.storage(.reading, detail: "course \(courseID.rawValue) is damaged") }
        let known = try course(courseID).map { EnrollmentFacts(course: $0, enrollment: enrollments[courseID]) }
        guard case .markLesson(let id, let number, let done, let at, let status, let completedAt) = try change.decide(known),
            var enrollment = enrollments[courseID]
        else { throw AppError.storage(.saving, detail: "a lesson mark decided as another change") }
        if done != enrollment.lessonsDone.contains(number) {
            // Marked again as it is, a lesson keeps its row and its time.
            lessons[id, default: [:]].updateValue(done ? at : nil, forKey: number)
        }
        if done { enrollment.lessonsDone.insert(number) } else { enrollment.lessonsDone.remove(number) }
        (enrollment.status, enrollment.completedAt, enrollment.lastActiveAt) = (status, completedAt, at)
        enrollments[courseID] = enrollment
        changed[id] = enrollment
    }

    /// Whether the learner holds a place in the course (an answer counts only then).
    func holdsPlace(_ courseID: CourseID) throws -> Bool {
        _ = try course(courseID)
        return enrollments[courseID]?.holdsPlace ?? false
    }

    /// The course's row as read (nil for one that is gone or damaged).
    private func course(_ courseID: CourseID) throws -> Course? {
        guard let row = courseRows[courseID] else { throw AppError.storage(.saving, detail: "an enrollment used before it was read") }
        return row
    }

    /// An answer given in the course at `time`: its enrollment was active then, if not later.
    mutating func answered(_ courseID: CourseID, at time: Date) {
        guard var enrollment = enrollments[courseID] else { return }
        enrollment.lastActiveAt = max(enrollment.lastActiveAt, time)
        enrollments[courseID] = enrollment
        changed[enrollment.id] = enrollment
    }

    /// What the batch changed, in one statement: the lessons' rows, then their enrollments.
    /// The enrollments are then forgotten, to be read again if a later mark or answer needs them.
    mutating func write(in connection: PostgresConnection, logger: Logger) async throws {
        defer { (courseRows, enrollments, damaged, lessons, changed) = ([:], [:], [], [:], [:]) }
        guard !changed.isEmpty else { return }
        let enrollments = Array(changed.values)
        let rows = lessons.flatMap { id, marks in marks.map { (id: id.rawValue, position: $0.key, doneAt: $0.value) } }
        let done = rows.compactMap { row in row.doneAt.map { (row.id, row.position, Micros.of($0)) } }
        let undone = rows.filter { $0.doneAt == nil }
        try await connection.query(
            """
            WITH undone AS (
                DELETE FROM lesson_progress USING unnest(\(undone.map(\.id))::bigint[], \(undone.map(\.position))::integer[]) AS u (id, position)
                WHERE lesson_progress.enrollment_id = u.id AND lesson_progress.position = u.position
            ),
            done AS (
                INSERT INTO lesson_progress (enrollment_id, position, done_at)
                SELECT d.id, d.position, \(unescaped: Micros.timestamp("d.micros"))
                FROM unnest(\(done.map(\.0))::bigint[], \(done.map(\.1))::integer[], \(done.map(\.2))::bigint[]) AS d (id, position, micros)
                ON CONFLICT (enrollment_id, position) DO UPDATE SET done_at = excluded.done_at
            )
            UPDATE enrollment SET status = e.status, completed_at = \(unescaped: Micros.timestamp("nullif(e.completed, \(Micros.never))")),
                active_at = \(unescaped: Micros.timestamp("e.active"))
            FROM unnest(\(enrollments.map(\.id.rawValue))::bigint[], \(enrollments.map(\.status.rawValue))::text[],
                        \(enrollments.map { $0.completedAt.map(Micros.of) ?? Micros.never })::bigint[],
                        \(enrollments.map { Micros.of($0.lastActiveAt) })::bigint[]) AS e (id, status, completed, active)
            WHERE enrollment.id = e.id
            """, logger: logger)
    }
}

/// An instant as PostgresNIO binds a `Date` (whole microseconds since 2000, cut), for arrays,
/// which PostgresNIO binds for no `Date` and no optional: a missing one is `never`.
enum Micros {
    static let never = Int64.min
    private static let epoch = Date(timeIntervalSince1970: 946_684_800)

    static func of(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince(epoch) * 1_000_000)
    }

    /// `column`, a count of microseconds (or NULL), as a `timestamptz` in SQL.
    static func timestamp(_ column: String) -> String {
        "(timestamptz '2000-01-01 00:00:00+00' + (\(column)) * interval '1 microsecond')"
    }
}
