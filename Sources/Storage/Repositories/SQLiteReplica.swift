import Foundation
import GRDB
import Platform
import SharedKernel

/// Remote mode's copy of the signed-in learner on their own disk: what the server last said
/// (the learner, their favourites and enrollments with the courses they name), with the
/// writes made here since applied on top by the outbox. The server's word is taken only while
/// no write of the learner waits to be sent: a waiting write is newer than what the server
/// said before it has it, so the replica keeps its own rows until the queue is empty.
public struct SQLiteReplica: Sendable {
    /// The lists a replica holds once the server has given them whole.
    public enum Part: String, Sendable {
        case profile
        case favourites
        case enrollments
        /// The review cards of every course the learner was enrolled in, saved once.
        case cards
    }

    let database: AppDatabase
    let now: @Sendable () -> Date

    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    /// The learner as the server knows them: the row every other row of theirs hangs on. A
    /// name waiting to be sent is kept: false then (the replica's name is the newer).
    @discardableResult
    public func keep(user: User) async throws(AppError) -> Bool {
        let now = now()
        // Every start keeps the learner: one already here as the server has them costs a
        // read, not a write (the first frame waits for it).
        let kept = try await database.read { db -> Bool? in
            guard try Self.holds(user, in: db) else { return nil }
            return try !Self.waits(user.id, in: db)
        }
        if let kept { return kept }
        return try await database.write { db in
            // Another account with this address (the seeded demo, a learner renumbered on the
            // server) gives way: the server's id is the one the operations carry.
            let key = AccountRules.emailKey(user.email)
            try db.execute(
                sql: "DELETE FROM user WHERE (email = ? OR email_key = ?) AND id != ?", arguments: [user.email, key, user.id.rawValue])
            let waiting = try Self.waits(user.id, in: db)
            try db.execute(
                sql: """
                    INSERT INTO user (id, name, email, email_key, password_hash, role, created_at) VALUES (?, ?, ?, ?, '', ?, ?)
                    ON CONFLICT(id) DO UPDATE SET
                        name = CASE WHEN ? THEN user.name ELSE excluded.name END, email = excluded.email,
                        email_key = excluded.email_key, role = excluded.role, created_at = excluded.created_at
                    """,
                arguments: [user.id.rawValue, user.name, user.email, key, user.role.rawValue, user.memberSince, waiting])
            try Self.mark(.profile, userID: user.id, at: now, in: db)
            return !waiting
        }
    }

    /// The learner signed in on this data directory, for a start while the server cannot be
    /// reached (nil: nobody, signed out).
    public func signedIn() async throws(AppError) -> User? {
        try await database.read { db in
            try Row.fetchOne(
                db,
                sql:
                    "SELECT user.id, user.name, user.email, user.role, user.created_at FROM session JOIN user ON user.id = session.user_id WHERE session.id = 1"
            ).map(UserRow.user(from:))
        }
    }

    /// Whether the replica has `user` as the server described them, and their profile.
    private static func holds(_ user: User, in db: Database) throws -> Bool {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT user.id, user.name, user.email, user.role, user.created_at FROM user
                    JOIN replica_part ON replica_part.user_id = user.id AND replica_part.part = ?
                    WHERE user.id = ? AND user.email_key = ?
                    """, arguments: [Part.profile.rawValue, user.id.rawValue, AccountRules.emailKey(user.email)])
        else { return false }
        return (try? UserRow.user(from: row)) == user
    }

    /// Who is signed in here now (nil: nobody); `keep(user:)` first.
    public func remember(signedIn userID: UserID?) async throws(AppError) {
        if let userID, try await signedIn()?.id == userID { return }
        let now = now()
        try await database.write { db in
            if let userID {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO session (id, user_id, created_at) VALUES (1, ?, ?)", arguments: [userID.rawValue, now])
            } else {
                try db.execute(sql: "DELETE FROM session")
            }
        }
    }

    /// Whether the learner's `part` was ever taken whole from the server.
    public func holds(_ part: Part, userID: UserID) async throws(AppError) -> Bool {
        try await database.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM replica_part WHERE user_id = ? AND part = ?", arguments: [userID.rawValue, part.rawValue])
                ?? false
        }
    }

    /// Courses the learner's rows name, as the server described them; a course already here
    /// keeps its place and seats held here.
    public func keep(courses: [Course]) async throws(AppError) {
        guard !courses.isEmpty else { return }
        try await database.write { db in try Self.store(courses, in: db) }
    }

    /// The learner's favourites as the server listed them: the whole list (`among` nil), or
    /// those among some courses (the others among them are not favourites). False, and
    /// nothing changed, while a write of theirs waits: the replica's own rows are the newer.
    public func adoptFavourites(_ courses: [Course], among ids: [CourseID]? = nil, userID: UserID) async throws(AppError) -> Bool {
        let now = now()
        return try await database.write { db in
            guard try !Self.waits(userID, in: db) else { return false }
            try Self.store(courses, in: db)
            let kept = try StoredTags.encode(courses.map(\.id.rawValue))
            if let ids {
                try db.execute(
                    sql: """
                        DELETE FROM favourite WHERE user_id = ? AND course_id IN (SELECT value FROM json_each(?))
                            AND course_id NOT IN (SELECT value FROM json_each(?))
                        """,
                    arguments: [userID.rawValue, try StoredTags.encode(ids.map(\.rawValue)), kept])
            } else {
                try db.execute(
                    sql: "DELETE FROM favourite WHERE user_id = ? AND course_id NOT IN (SELECT value FROM json_each(?))",
                    arguments: [userID.rawValue, kept])
            }
            let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO favourite (user_id, course_id, created_at) VALUES (?, ?, ?)")
            for course in courses { try insert.execute(arguments: [userID.rawValue, course.id.rawValue, now]) }
            if ids == nil { try Self.mark(.favourites, userID: userID, at: now, in: db) }
            return true
        }
    }

    /// The learner's listed enrollments as the server gave them, each with its lessons done:
    /// the whole list (`among` nil), or those among some courses. One not listed is a place
    /// given up (its progress stays, as on the server). False, and nothing changed, while a
    /// write of theirs waits.
    public func adoptEnrollments(_ enrolled: [EnrolledCourse], among ids: [CourseID]? = nil, userID: UserID) async throws(AppError)
        -> Bool
    {
        let now = now()
        return try await database.write { db in
            guard try !Self.waits(userID, in: db) else { return false }
            try Self.store(enrolled.map(\.course), in: db)
            let listed = try StoredTags.encode(enrolled.map(\.course.id.rawValue))
            let scope = ids == nil ? "" : "AND course_id IN (SELECT value FROM json_each(?))"
            var arguments: StatementArguments = [userID.rawValue, listed]
            if let ids { _ = arguments.append(contentsOf: [try StoredTags.encode(ids.map(\.rawValue))]) }
            try db.execute(
                sql: """
                    UPDATE enrollment SET status = 'dropped', completed_at = NULL
                    WHERE user_id = ? AND course_id NOT IN (SELECT value FROM json_each(?)) \(scope)
                    """,
                arguments: arguments)
            for one in enrolled { try Self.store(one, in: db) }
            if ids == nil { try Self.mark(.enrollments, userID: userID, at: now, in: db) }
            return true
        }
    }

    /// Whether the replica has `courseID`'s row (a write on a course never seen here needs the
    /// server first).
    public func hasCourse(_ courseID: CourseID) async throws(AppError) -> Bool {
        try await database.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM course WHERE id = ?", arguments: [courseID.rawValue]) ?? false
        }
    }

    /// Whether the replica has the learner's enrollment row in `courseID`, listed or not.
    public func hasEnrollment(userID: UserID, courseID: CourseID) async throws(AppError) -> Bool {
        try await database.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM enrollment WHERE user_id = ? AND course_id = ?", arguments: [userID.rawValue, courseID.rawValue])
                ?? false
        }
    }

    static func waits(_ userID: UserID, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT 1 FROM outbox WHERE user_id = ? AND sent = 0 LIMIT 1", arguments: [userID.rawValue]) ?? false
    }

    static func mark(_ part: Part, userID: UserID, at now: Date, in db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO replica_part (user_id, part, kept_at) VALUES (?, ?, ?)",
            arguments: [userID.rawValue, part.rawValue, Int64(now.timeIntervalSince1970)])
    }

    /// A course with its lessons' titles, as its page showed them: the lessons are written
    /// again only when they changed, so the lessons' bodies kept here stay.
    public func keep(syllabus: Syllabus) async throws(AppError) {
        try await database.write { db in
            try Self.store([syllabus.course], in: db)
            let stored = try CourseRow.lessons(of: syllabus.course, in: db)
            func same(_ a: Lesson, _ b: Lesson) -> Bool { (a.title, a.minutes, a.questionCount) == (b.title, b.minutes, b.questionCount) }
            let changed = stored.count != syllabus.lessons.count || zip(stored, syllabus.lessons).contains { !same($0, $1) }
            // A course of one lesson named after it keeps no rows (as an import leaves it).
            guard changed, !(syllabus.lessons.count == 1 && same(syllabus.lessons[0], .only(of: syllabus.course))) else { return }
            try CourseRow.storeLessons(
                syllabus.lessons.map { Lesson(title: $0.title, minutes: $0.minutes, questionCount: $0.questionCount) },
                of: syllabus.course.id, in: db)
        }
    }

    /// A lesson's body and questions as the server gave them, for reading offline. False, and
    /// nothing kept, when the replica does not have that lesson's title yet (`keep(syllabus:)`).
    @discardableResult
    public func keep(_ content: LessonContent, courseID: CourseID, lesson: Int) async throws(AppError) -> Bool {
        try await database.write { db in
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM lesson WHERE course_id = ? AND position = ?", arguments: [courseID.rawValue, lesson]) == true
            else { return false }
            // A server serves questions unanswered: what the learner's answers revealed here stays.
            let kept = try String.fetchOne(
                db, sql: "SELECT questions FROM lesson_content WHERE course_id = ? AND position = ?",
                arguments: [courseID.rawValue, lesson])
            let questions = Self.revealed(content.questions, keeping: QuestionsJSON.decode(kept) ?? [])
            try db.execute(
                sql: "INSERT OR REPLACE INTO lesson_content (course_id, position, body, questions) VALUES (?, ?, ?, ?)",
                arguments: [courseID.rawValue, lesson, content.body, QuestionsJSON.encode(questions)])
            return true
        }
    }

    /// `questions` as served, each unanswered one with the right choices and explanation
    /// `kept` has for the same question (its prompt and choices).
    static func revealed(_ questions: [Question], keeping kept: [Question]) -> [Question] {
        questions.enumerated().map { index, question in
            guard question.correct.isEmpty, kept.indices.contains(index), !kept[index].correct.isEmpty,
                kept[index].prompt == question.prompt, kept[index].choices == question.choices
            else { return question }
            var known = question
            known.correct = kept[index].correct
            known.explanation = kept[index].explanation
            return known
        }
    }

    /// The courses as the catalog's rows, with the server's lesson count. A course already
    /// here has its fields updated and keeps its lessons.
    static func store(_ courses: [Course], in db: Database) throws {
        guard !courses.isEmpty else { return }
        let update = try db.cachedStatement(
            sql: """
                UPDATE course SET title = ?, instructor = ?, category = ?, level = ?, duration_minutes = ?, price_minor = ?,
                    currency = ?, capacity = ?, enrolled_count = ?, tags = ?, prerequisite_id = ?, active = ?, description = ?,
                    lesson_count = ?
                WHERE id = ?
                """)
        var new: [Course] = []
        for course in courses {
            try update.execute(arguments: [
                course.title, course.instructor, course.category, course.level.rawValue, course.durationMinutes,
                course.price.minorUnits, course.price.currency, course.capacity, course.enrolledCount,
                try StoredTags.encode(course.tags), course.prerequisiteID?.rawValue, course.isActive, course.description,
                course.lessonCount, course.id.rawValue,
            ])
            if db.changesCount == 0 { new.append(course) }
        }
        guard !new.isEmpty else { return }
        _ = try AppDatabase.store(new.map { CourseEntry(course: $0) }, in: db)
        let count = try db.cachedStatement(sql: "UPDATE course SET lesson_count = ? WHERE id = ?")
        for course in new { try count.execute(arguments: [course.lessonCount, course.id.rawValue]) }
    }

    private static func store(_ enrolled: EnrolledCourse, in db: Database) throws {
        let enrollment = enrolled.enrollment
        try db.execute(
            sql: """
                INSERT INTO enrollment (user_id, course_id, enrolled_at, active_at, status, progress, completed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(user_id, course_id) DO UPDATE SET
                    enrolled_at = excluded.enrolled_at, active_at = excluded.active_at, status = excluded.status,
                    progress = excluded.progress, completed_at = excluded.completed_at
                """,
            arguments: [
                enrollment.userID.rawValue, enrollment.courseID.rawValue, enrollment.enrolledAt, enrollment.lastActiveAt,
                enrollment.status.rawValue, enrolled.percent, enrollment.completedAt,
            ])
        guard
            let id = try Int64.fetchOne(
                db, sql: "SELECT id FROM enrollment WHERE user_id = ? AND course_id = ?",
                arguments: [enrollment.userID.rawValue, enrollment.courseID.rawValue])
        else { throw AppError.storage(.saving, detail: "replica enrollment vanished inside its own transaction") }
        try db.execute(sql: "DELETE FROM lesson_progress WHERE enrollment_id = ?", arguments: [id])
        let insert = try db.cachedStatement(sql: "INSERT INTO lesson_progress (enrollment_id, position, done_at) VALUES (?, ?, ?)")
        for lesson in enrollment.lessonsDone.sorted() { try insert.execute(arguments: [id, lesson, enrollment.lastActiveAt]) }
    }
}
