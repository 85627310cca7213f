import Foundation
import Logging
import PostgresNIO
import SharedKernel

/// A review's or an answer's writes as one statement (more only for a long log): each a
/// data-modifying `WITH` part, run once and to completion whatever the main query reads. A
/// merged review cost five round trips (log rows out, each entry in, the card, the day), each
/// about as dear as the database's own work; the parts touch different tables, or different
/// rows of one, so running them in one snapshot changes nothing they do.
struct LearningWrite {
    /// Log rows in one statement at most: 13 binds each, well inside PostgreSQL's 65,535,
    /// however many entries are written.
    private let rowsPerStatement: Int
    /// Statements ended before the one being added to, run first, in order.
    private var ended: [PostgresQuery] = []
    private var binds = PostgresBindings()
    private var parts: [String] = []

    init(rowsPerStatement: Int = 1_000) {
        self.rowsPerStatement = max(1, rowsPerStatement)
    }

    /// Ends the statement being added to; what is added next goes in a new one, run after it.
    private mutating func endStatement() {
        guard !parts.isEmpty else { return }
        ended.append(Self.statement(parts, binds))
        (parts, binds) = ([], PostgresBindings())
    }

    private static func statement(_ parts: [String], _ binds: PostgresBindings) -> PostgresQuery {
        let named = parts.enumerated().map { "write\($0.offset) AS (\($0.element))" }
        return PostgresQuery(unsafeSQL: "WITH \(named.joined(separator: ",\n")) SELECT 1", binds: binds)
    }

    /// Adds a value (or NULL) to bind and gives its placeholder.
    private mutating func bind(_ value: (some PostgresDynamicTypeEncodable)?) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    /// The card's key in a `WHERE`.
    private mutating func card(_ ref: QuestionRef, userID: UserID) -> String {
        "user_id = \(bind(userID.rawValue)) AND course_id = \(bind(ref.courseID.rawValue)) AND lesson = \(bind(ref.lesson))"
            + " AND question = \(bind(ref.question))"
    }

    /// The log rows `ids` replaced by `entries`, inserted in their order (ids grow with it).
    mutating func rewriteLog(_ ids: [Int], with entries: [ReviewLogEntry], userID: UserID) {
        if !ids.isEmpty { parts.append("DELETE FROM review_log WHERE id = ANY(\(bind(ids.map(Int64.init)))::bigint[])") }
        for (index, chunk) in stride(from: 0, to: entries.count, by: rowsPerStatement).enumerated() {
            // Each chunk after the first in a statement of its own: statements run in turn,
            // so ids still grow in the entries' order.
            if index > 0 { endStatement() }
            insertLog(entries[chunk..<min(chunk + rowsPerStatement, entries.count)], userID: userID)
        }
    }

    private mutating func insertLog(_ entries: ArraySlice<ReviewLogEntry>, userID: UserID) {
        var rows: [String] = []
        for (position, entry) in entries.enumerated() {
            let (ref, before) = (entry.ref, entry.before)
            // Typed, as a column of NULLs alone would not be.
            rows.append(
                """
                (\(bind(position))::integer, \(bind(ref.courseID.rawValue))::text, \(bind(ref.lesson))::integer, \
                \(bind(ref.question))::integer, \(bind(entry.grade.rawValue))::text, \
                \(bind(PostgresLearningRepository.seconds(entry.reviewedAt)))::bigint, \(bind(before.card.state.rawValue))::smallint, \
                \(bind(before.card.step))::integer, \(bind(before.card.stability))::double precision, \
                \(bind(before.card.difficulty))::double precision, \(bind(PostgresLearningRepository.seconds(before.card.due)))::bigint, \
                \(bind(before.card.lastReview.map(PostgresLearningRepository.seconds)))::bigint, \(bind(before.reviews))::integer)
                """)
        }
        parts.append(
            """
            INSERT INTO review_log (user_id, course_id, lesson, question, grade, reviewed_at, \(PostgresLearningRepository.scheduleColumns))
            SELECT \(bind(userID.rawValue)), e.course_id, e.lesson, e.question, e.grade, e.reviewed_at, \
            \(PostgresLearningRepository.scheduleColumns(of: "e"))
            FROM (VALUES \(rows.joined(separator: ", "))) AS e (position, course_id, lesson, question, grade, reviewed_at, \
            \(PostgresLearningRepository.scheduleColumns))
            ORDER BY e.position
            """)
    }

    /// The card's schedule in its answer's row.
    mutating func setCard(_ ref: QuestionRef, _ next: CardSchedule, userID: UserID) {
        parts.append(
            """
            UPDATE answer SET state = \(bind(next.card.state.rawValue)), step = \(bind(next.card.step)), \
            stability = \(bind(next.card.stability)), difficulty = \(bind(next.card.difficulty)), \
            due_at = \(bind(PostgresLearningRepository.seconds(next.card.due))), \
            last_review_at = \(bind(next.card.lastReview.map(PostgresLearningRepository.seconds))), reviews = \(bind(next.reviews))
            WHERE \(card(ref, userID: userID))
            """)
    }

    /// A day the learner reviewed on (their streak's).
    mutating func reviewDay(_ day: Int, userID: UserID) {
        parts.append("INSERT INTO review_day (user_id, day) VALUES (\(bind(userID.rawValue)), \(bind(day))) ON CONFLICT DO NOTHING")
    }

    /// A first answer with the card it starts (one there already stays).
    mutating func insertAnswer(_ answer: Answer, card: CardSchedule, at time: StudyTime, userID: UserID) {
        let ref = answer.ref
        parts.append(
            """
            INSERT INTO answer (user_id, course_id, lesson, question, chosen, is_right, answered_day, answered_at, \
            \(PostgresLearningRepository.scheduleColumns))
            VALUES (\(bind(userID.rawValue)), \(bind(ref.courseID.rawValue)), \(bind(ref.lesson)), \(bind(ref.question)), \
            \(bind(answer.chosen.sorted())), \(bind(answer.isRight)), \(bind(time.day.number)), \
            \(bind(PostgresLearningRepository.seconds(time.now))), \(bind(card.card.state.rawValue)), \(bind(card.card.step)), \
            \(bind(card.card.stability)), \(bind(card.card.difficulty)), \(bind(PostgresLearningRepository.seconds(card.card.due))), \
            \(bind(card.card.lastReview.map(PostgresLearningRepository.seconds))), \(bind(card.reviews)))
            ON CONFLICT (user_id, course_id, lesson, question) DO NOTHING
            """)
    }

    /// The enrollment's last activity.
    mutating func activeAt(_ time: Date, courseID: CourseID, userID: UserID) {
        parts.append(
            """
            UPDATE enrollment SET active_at = \(bind(time))
            WHERE user_id = \(bind(userID.rawValue)) AND course_id = \(bind(courseID.rawValue))
            """)
    }

    /// Runs the parts added, in one statement (nothing for none; more for a long log).
    func run(in connection: PostgresConnection, logger: Logger) async throws {
        for statement in ended { try await connection.query(statement, logger: logger) }
        guard !parts.isEmpty else { return }
        try await connection.query(Self.statement(parts, binds), logger: logger)
    }
}
