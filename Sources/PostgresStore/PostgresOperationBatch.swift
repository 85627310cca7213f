import Foundation
import Logging
import PostgresNIO
import SharedKernel

/// What a batch of queued operations needs besides their own writes, read in one statement
/// before the first and written in one after the last (`PostgresOperationRepository.run`):
/// the records of their ids, which of their courses exist, and their items' times; and the
/// favourites and the name, decided here in memory, so that neither costs a statement of its
/// own (each was one, a round trip through PostgresNIO). The
/// learner's row is locked for the whole batch, and every route that stamps an item's time
/// (favourite, lesson mark, name) locks it first, so nothing else writes them meanwhile.
///
/// The same statement locks the courses whose seats the batch may change, in one order, and
/// the cards the batch schedules. The review and undo routes lock
/// a card's row, not the learner's: a merge that read a card unlocked while a route's review
/// of it was under way would write the card back without that review (its log row kept, the
/// card no longer the replay of its log). Locked first, the cards are read in the next
/// statement (`BatchCards.read`), which sees what committed before it: the route's review,
/// or the route waits. (Read in the locking statement itself, they would be its snapshot's,
/// taken before it waited.)
struct OperationBatch {
    /// The outcome kept under each id: read, or made by this batch.
    private var records: [String: (fingerprint: String, code: String, subject: String)] = [:]
    /// The batch's courses that exist.
    private(set) var courses: Set<String> = []
    /// Each latest-wins item's time: read, or moved by this batch.
    private(set) var times: [String: HybridTime] = [:]
    /// What this batch adds: records to insert, times to write.
    private var newRecords: [(id: String, fingerprint: String, code: String, subject: String)] = []
    private var stamps: [String: HybridTime] = [:]
    /// The batch's favourite courses that are the learner's: read, then as its operations left them.
    private var favourites: Set<String> = []
    /// The favourites the batch changed: the time of the one it made, nil for one it took away.
    private var favouritesMade: [String: Date?] = [:]
    /// The last name the batch gave.
    private var name: String?
    /// The cards its grades and undos merge, and the enrollments its lesson marks change.
    var cards: BatchCards
    var enrollments: BatchEnrollments

    private init(_ operations: [SyncOperation], now: Date) {
        cards = BatchCards(operations, now: now)
        enrollments = BatchEnrollments(operations)
    }

    static func read(_ operations: [SyncOperation], userID: UserID, now: Date, in connection: PostgresConnection, logger: Logger)
        async throws -> OperationBatch
    {
        let ids = Array(Set(operations.map(\.id.rawValue)))
        let courses = Array(Set(operations.compactMap { $0.kind.courseID?.rawValue }))
        let items = Array(Set(operations.compactMap { MergeRules.item(of: $0.kind) }))
        let cards = Array(Set(operations.compactMap(\.kind.card)))
        let favourites = Array(
            Set(
                operations.compactMap {
                    if case .favourite(let courseID, _) = $0.kind { courseID.rawValue } else { nil }
                }))
        // The courses whose seats the batch may change: locked in one order before the first
        // operation, not each as its operation comes (two batches joining two courses in
        // opposite orders each held the course the other wanted next: a deadlock).
        let seats = Array(
            Set(
                operations.compactMap {
                    switch $0.kind {
                    case .enroll(let courseID), .unenroll(let courseID): courseID.rawValue
                    case .favourite, .lesson, .name, .answer, .review, .undoReview: nil
                    }
                }))
        let rows = try await connection.query(
            """
            WITH card AS (
                SELECT 1 FROM answer
                WHERE user_id = \(userID.rawValue) AND (course_id, lesson, question) IN (
                    SELECT * FROM unnest(\(cards.map(\.courseID.rawValue))::text[], \(cards.map(\.lesson))::integer[],
                                         \(cards.map(\.question))::integer[]))
                ORDER BY course_id, lesson, question
                FOR UPDATE
            ),
            seat AS (SELECT 1 FROM course WHERE id = ANY(\(seats)::text[]) ORDER BY id FOR UPDATE)
            SELECT 'record', id, fingerprint, code, subject FROM applied_operation
                WHERE user_id = \(userID.rawValue) AND id = ANY(\(ids)::text[])
            UNION ALL SELECT 'course', id, NULL, NULL, NULL FROM course WHERE id = ANY(\(courses)::text[])
            UNION ALL SELECT 'time', item, time, NULL, NULL FROM merge_time
                WHERE user_id = \(userID.rawValue) AND item = ANY(\(items)::text[])
            UNION ALL SELECT 'favourite', course_id, NULL, NULL, NULL FROM favourite
                WHERE user_id = \(userID.rawValue) AND course_id = ANY(\(favourites)::text[])
            UNION ALL SELECT 'cards', count(*)::text, NULL, NULL, NULL FROM card
            UNION ALL SELECT 'seats', count(*)::text, NULL, NULL, NULL FROM seat
            """, logger: logger)
        var batch = OperationBatch(operations, now: now)
        for try await (kind, key, first, second, third) in rows.decode((String, String, String?, String?, String?).self) {
            switch kind {
            case "record": batch.records[key] = (first ?? "", second ?? "", third ?? "")
            case "course": batch.courses.insert(key)
            case "time": batch.times[key] = first.flatMap(HybridTime.init)
            case "favourite": batch.favourites.insert(key)
            default: break  // the cards and seats locked, counted so the database reads them all
            }
        }
        // Read after the statement that locks them, so a review that committed meanwhile is seen.
        try await batch.cards.read(userID: userID, in: connection, logger: logger)
        try await batch.enrollments.read(userID: userID, in: connection, logger: logger)
        return batch
    }

    /// The outcome kept for an id seen before: the same again, or `.conflicting` for another
    /// operation under it.
    func recorded(_ operation: SyncOperation) throws -> OperationOutcome? {
        guard let (fingerprint, code, subject) = records[operation.id.rawValue] else { return nil }
        guard fingerprint == operation.fingerprint else { return .conflicting }
        guard let outcome = OperationRecord.outcome(code: code, subject: subject, of: operation.kind) else {
            throw AppError.storage(.reading, detail: "applied operation \(operation.id): an outcome not known")
        }
        return outcome
    }

    mutating func record(_ operation: SyncOperation, _ outcome: OperationOutcome) {
        let (code, subject) = OperationRecord.code(of: outcome)
        records[operation.id.rawValue] = (operation.fingerprint, code, subject)
        newRecords.append((operation.id.rawValue, operation.fingerprint, code, subject))
    }

    /// An item's new time, once its operation was applied.
    mutating func stamp(_ item: String, _ time: HybridTime) {
        times[item] = time
        stamps[item] = time
    }

    /// A course made a favourite or taken away at `time` (the batch knows the course exists);
    /// true when that changed it.
    mutating func favourite(_ isFavourite: Bool, courseID: CourseID, at time: Date) -> Bool {
        let id = courseID.rawValue
        guard isFavourite ? favourites.insert(id).inserted : favourites.remove(id) != nil else { return false }
        // Made again after being taken away, it is made at this time, as a row inserted anew.
        favouritesMade.updateValue(isFavourite ? time : nil, forKey: id)
        return true
    }

    /// The learner's name given by an operation (checked by the caller).
    mutating func rename(to name: String) {
        self.name = name
    }

    /// What this batch made: its cards and enrollments, then in one statement its records, its
    /// items' times, the favourites it changed and the name it gave.
    mutating func write(userID: UserID, now: Date, in connection: PostgresConnection, logger: Logger) async throws {
        try await cards.write(userID: userID, in: connection, logger: logger)
        try await enrollments.write(in: connection, logger: logger)
        guard !newRecords.isEmpty || !stamps.isEmpty || !favouritesMade.isEmpty || name != nil else { return }
        let (items, times) = (Array(stamps.keys), stamps.keys.map { stamps[$0]?.description ?? "" })
        let made = favouritesMade.compactMap { id, time in time.map { (id: id, micros: Micros.of($0)) } }
        let takenAway = favouritesMade.filter { $0.value == nil }.map(\.key)
        try await connection.query(
            """
            WITH record AS (
                INSERT INTO applied_operation (user_id, id, fingerprint, code, subject, applied_at)
                SELECT \(userID.rawValue), record.id, record.fingerprint, record.code, record.subject, \(now)
                FROM unnest(\(newRecords.map(\.id))::text[], \(newRecords.map(\.fingerprint))::text[], \(newRecords.map(\.code))::text[],
                            \(newRecords.map(\.subject))::text[]) AS record (id, fingerprint, code, subject)
            ),
            stamp AS (
                INSERT INTO merge_time (user_id, item, time)
                SELECT \(userID.rawValue), stamp.item, stamp.time FROM unnest(\(items)::text[], \(times)::text[]) AS stamp (item, time)
                ON CONFLICT (user_id, item) DO UPDATE SET time = excluded.time
            ),
            taken_away AS (DELETE FROM favourite WHERE user_id = \(userID.rawValue) AND course_id = ANY(\(takenAway)::text[])),
            made AS (
                INSERT INTO favourite (user_id, course_id, course_rank, created_at)
                SELECT \(userID.rawValue), course.id, course.sort_rank, \(unescaped: Micros.timestamp("made.micros"))
                FROM unnest(\(made.map(\.id))::text[], \(made.map(\.micros))::bigint[]) AS made (id, micros)
                JOIN course ON course.id = made.id
                ON CONFLICT (user_id, course_id) DO UPDATE SET course_rank = excluded.course_rank, created_at = excluded.created_at
            ),
            name AS (UPDATE learner SET name = \(name) WHERE id = \(userID.rawValue) AND \(name)::text IS NOT NULL)
            SELECT 1
            """, logger: logger)
    }
}

extension OperationKind {
    /// The card an answer, a grade or an undo schedules.
    fileprivate var card: QuestionRef? {
        switch self {
        case .answer(let ref, _, _), .review(let ref, _, _), .undoReview(let ref, _): ref
        case .favourite, .lesson, .enroll, .unenroll, .name: nil
        }
    }
}
