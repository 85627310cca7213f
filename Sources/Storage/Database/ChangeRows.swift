import GRDB
import SharedKernel

/// The `change_event` table (v14): each write notes what it changed in its own transaction,
/// so another process (or the server's event streams) can tell what to read again.
enum ChangeRows {
    static func create(in db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE change_event (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL,
                    user_id INTEGER,
                    course_id TEXT,
                    sign_in TEXT
                );
                CREATE INDEX change_event_by_user ON change_event(user_id, id);
                -- Changes up to this id may have been forgotten: a reader from before it has a gap.
                CREATE TABLE change_horizon (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    forgotten_through INTEGER NOT NULL
                );
                INSERT INTO change_horizon (id, forgotten_through) VALUES (1, 0);
                """)
    }

    /// Notes `change` inside the caller's transaction; every 1,024th note forgets what lies
    /// more than `ChangeRetention.kept` changes back.
    static func record(_ change: Change, in db: Database) throws {
        let (kind, user, course, signIn) = columns(of: change)
        try db.cachedStatement(sql: "INSERT INTO change_event (kind, user_id, course_id, sign_in) VALUES (?, ?, ?, ?)")
            .execute(arguments: [kind, user, course, signIn])
        let id = db.lastInsertedRowID
        guard id % 1_024 == 0, id > ChangeRetention.kept else { return }
        let horizon = id - ChangeRetention.kept
        try db.execute(sql: "DELETE FROM change_event WHERE id <= ?", arguments: [horizon])
        try db.execute(sql: "UPDATE change_horizon SET forgotten_through = ? WHERE id = 1", arguments: [horizon])
    }

    static func newestID(in db: Database) throws -> Int64 {
        let newest = try Int64.fetchOne(db, sql: "SELECT max(id) FROM change_event")
        return try newest ?? horizon(in: db)
    }

    static func changes(after id: Int64, for learner: UserID?, limit: Int, in db: Database) throws -> ChangeBatch {
        let newest = try newestID(in: db)
        guard id >= (try horizon(in: db)), id <= newest else { return .gap(newest: newest) }
        let rows: [Row]
        if let learner {
            rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM change_event WHERE id > ? AND (user_id = ? OR user_id IS NULL) ORDER BY id LIMIT ?
                        """),
                arguments: [id, learner.rawValue, limit])
        } else {
            rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM change_event WHERE id > ? ORDER BY id LIMIT ?"), arguments: [id, limit])
        }
        // A kind this version does not know (a newer one wrote it) is skipped, not fatal.
        return .events(rows.compactMap(event(from:)))
    }

    private static func horizon(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT forgotten_through FROM change_horizon WHERE id = 1") ?? 0
    }

    private static func columns(of change: Change) -> (String, Int64?, String?, String?) {
        switch change {
        case .enrollment(let user, let course): ("enrollment", user.rawValue, course.rawValue, nil)
        case .favourite(let user, let course): ("favourite", user.rawValue, course.rawValue, nil)
        case .learning(let user, let course): ("learning", user.rawValue, course?.rawValue, nil)
        case .profile(let user): ("profile", user.rawValue, nil, nil)
        case .signedOut(let user, let signIn): ("signed_out", user.rawValue, nil, signIn)
        case .course(let course): ("course", nil, course.rawValue, nil)
        case .catalog: ("catalog", nil, nil, nil)
        }
    }

    private static func event(from row: Row) -> ChangeEvent? {
        guard let id = row["id"] as Int64?, let kind = row["kind"] as String? else { return nil }
        let user = (row["user_id"] as Int64?).map { UserID($0) }
        let course = (row["course_id"] as String?).map { CourseID($0) }
        let change: Change
        switch (kind, user, course, row["sign_in"] as String?) {
        case ("enrollment", let user?, let course?, _): change = .enrollment(user, course)
        case ("favourite", let user?, let course?, _): change = .favourite(user, course)
        case ("learning", let user?, let course, _): change = .learning(user, course)
        case ("profile", let user?, _, _): change = .profile(user)
        case ("signed_out", let user?, _, let signIn?): change = .signedOut(user, signIn: signIn)
        case ("course", nil, let course?, _): change = .course(course)
        case ("catalog", nil, _, _): change = .catalog
        default: return nil
        }
        return ChangeEvent(id: id, change: change)
    }
}
