import Logging
import PostgresNIO
import SharedKernel
import Synchronization

/// The `change_event` table (v7): each write notes what it changed in its own transaction, as
/// the SQLite store does, so every server of the database can tell its event streams what to
/// read again.
///
/// Ids must grow in the order the changes commit, or a reader that has seen id 8 would never
/// read a 7 that committed after it. A sequence alone does not give that: two transactions
/// take 7 and 8, and 8 may commit first. So a noting transaction takes `lock` (an advisory
/// lock held to its end) right before it takes its ids, as its last statements: the next one
/// gets its ids only once this one has committed and is visible (PostgreSQL publishes a
/// commit before it lets go of the transaction's locks). Only the very end of each writing
/// transaction is serialized, and nothing is locked after `lock`, so it takes part in no
/// deadlock.
enum PostgresChangeRows {
    /// The key of the advisory lock that orders the notes (the migrations' is …01, the catalog's …02).
    static let lock = 0x6564_7567_6f00_0003

    static let schema = [
        """
        CREATE TABLE change_event (
            id bigserial PRIMARY KEY,
            kind text COLLATE "C" NOT NULL,
            user_id bigint,
            course_id text COLLATE "C",
            sign_in text COLLATE "C"
        )
        """,
        "CREATE INDEX change_event_by_user ON change_event (user_id, id)",
        // Changes up to this id may have been forgotten: a reader from before it has a gap.
        "CREATE TABLE change_horizon (id integer PRIMARY KEY CHECK (id = 1), forgotten_through bigint NOT NULL)",
        "INSERT INTO change_horizon (id, forgotten_through) VALUES (1, 0)",
    ]

    /// Notes `changes`, in order, to be written as the last statement of the caller's
    /// transaction (`PostgresDatabase.transaction` writes what was noted after its body);
    /// other servers find them by reading the log (`PostgresChangeSignal`).
    static func record(_ changes: [Change], in connection: PostgresConnection, logger: Logger) async throws {
        guard !changes.isEmpty else { return }
        if let deferred {
            deferred.note(changes)
            return
        }
        try await write(changes, in: connection, logger: logger)
    }

    /// Writes `changes` now. Each 1,024th id forgets what lies more than
    /// `ChangeRetention.kept` changes back.
    ///
    /// One statement, one round trip (before: four of an enrollment's fourteen): the
    /// rows to insert join the lock's one row and are sorted, so the lock is held before the
    /// first id is drawn.
    static func write(_ changes: [Change], in connection: PostgresConnection, logger: Logger) async throws {
        guard !changes.isEmpty else { return }
        var binds = PostgresBindings()
        binds.append(Int64(lock))
        var rows: [String] = []
        for (position, change) in changes.enumerated() {
            let (kind, user, course, signIn) = columns(of: change)
            binds.append(Int64(position))
            binds.append(kind)
            binds.append(user)
            binds.append(course)
            binds.append(signIn)
            let first = binds.count - 4
            rows.append("($\(first)::bigint, $\(first + 1)::text, $\(first + 2)::bigint, $\(first + 3)::text, $\(first + 4)::text)")
        }
        let statement = PostgresQuery(
            unsafeSQL: """
                WITH noted AS (
                    INSERT INTO change_event (kind, user_id, course_id, sign_in)
                    SELECT change.kind, change.user_id, change.course_id, change.sign_in
                    FROM (SELECT pg_advisory_xact_lock($1)) AS locked,
                         (VALUES \(rows.joined(separator: ", "))) AS change (position, kind, user_id, course_id, sign_in)
                    ORDER BY change.position
                    RETURNING id
                )
                SELECT array_agg(id ORDER BY id) FROM noted
                """,
            binds: binds)
        let noted = try await connection.query(statement, logger: logger).decode([Int64].self).first { _ in true }
        guard let ids = noted, ids.count == changes.count else {
            throw AppError.storage(.saving, detail: "changes were noted without their ids")
        }
        for id in ids where id % 1_024 == 0 && id > ChangeRetention.kept {
            let horizon = id - ChangeRetention.kept
            try await connection.query("DELETE FROM change_event WHERE id <= \(horizon)", logger: logger)
            try await connection.query("UPDATE change_horizon SET forgotten_through = \(horizon) WHERE id = 1", logger: logger)
        }
    }

    /// Changes noted in a transaction, written together as its last statement: written as
    /// they were noted, a batch's first operation's note took the lock that orders every
    /// server's writes and held it for the rest of the batch (up to 2 s for 200), and a route
    /// that wrote after its note could deadlock with a batch.
    final class Deferred: Sendable {
        private let changes = Mutex<[Change]>([])

        func note(_ more: [Change]) {
            changes.withLock { $0 += more }
        }

        /// How many are noted: where an operation refused rolls back to.
        var count: Int { changes.withLock(\.count) }

        func rollBack(to count: Int) {
            changes.withLock { $0.removeSubrange(min(count, $0.count)...) }
        }

        /// Each change once, in the order first noted: a stream reads a course again once.
        var noted: [Change] {
            changes.withLock { changes in
                var seen = Set<Change>()
                return changes.filter { seen.insert($0).inserted }
            }
        }
    }

    /// Set while a transaction's body runs (`PostgresDatabase.transaction`), and while a
    /// batch's operations run (`PostgresOperationRepository`, which takes back a refused
    /// operation's notes): `record` notes into it instead of writing.
    @TaskLocal static var deferred: Deferred?

    static func newestID(in connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        let newest = try await connection.prepared(
            "SELECT coalesce((SELECT max(id) FROM change_event), forgotten_through) FROM change_horizon WHERE id = 1", logger: logger
        ).decode(Int64.self).first { _ in true }
        return newest ?? 0
    }

    /// One statement, so one snapshot: the horizon, the newest id and the changes agree (a
    /// horizon moved between two statements would drop changes without saying so).
    static func changes(after id: Int64, for learner: UserID?, limit: Int, in connection: PostgresConnection, logger: Logger) async throws
        -> ChangeBatch
    {
        let rows = try await connection.query(
            """
            SELECT horizon.forgotten_through, coalesce((SELECT max(id) FROM change_event), horizon.forgotten_through),
                   event.id, event.kind, event.user_id, event.course_id, event.sign_in
            FROM change_horizon AS horizon
            LEFT JOIN LATERAL (
                SELECT id, kind, user_id, course_id, sign_in FROM change_event
                WHERE id > \(id) AND (\(learner == nil) OR user_id = \(learner?.rawValue ?? 0) OR user_id IS NULL)
                ORDER BY id LIMIT \(limit)
            ) AS event ON true
            WHERE horizon.id = 1
            ORDER BY event.id
            """,
            logger: logger
        )
        var horizon: Int64 = 0
        var newest: Int64 = 0
        var events: [ChangeEvent] = []
        for try await row in rows.decode((Int64, Int64, Int64?, String?, Int64?, String?, String?).self) {
            (horizon, newest) = (row.0, row.1)
            guard let eventID = row.2, let kind = row.3 else { continue }
            // A kind this version does not know (a newer one wrote it) is skipped, not fatal.
            if let change = change(kind: kind, user: row.4, course: row.5, signIn: row.6) {
                events.append(ChangeEvent(id: eventID, change: change))
            }
        }
        guard id >= horizon, id <= newest else { return .gap(newest: newest) }
        return .events(events)
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

    private static func change(kind: String, user: Int64?, course: String?, signIn: String?) -> Change? {
        switch (kind, user.map { UserID($0) }, course.map { CourseID($0) }, signIn) {
        case ("enrollment", let user?, let course?, _): .enrollment(user, course)
        case ("favourite", let user?, let course?, _): .favourite(user, course)
        case ("learning", let user?, let course, _): .learning(user, course)
        case ("profile", let user?, _, _): .profile(user)
        case ("signed_out", let user?, _, let signIn?): .signedOut(user, signIn: signIn)
        case ("course", nil, let course?, _): .course(course)
        case ("catalog", nil, _, _): .catalog
        default: nil
        }
    }
}
