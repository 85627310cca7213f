import Foundation
import GRDB
import SharedKernel

/// A terminal's writes in remote mode, kept on its own disk until the server has them: each is
/// made an operation (a new id, the next reading of this replica's hybrid clock), applied to
/// the replica by the same `MergeRules` the server runs, and queued, in one transaction, so a
/// kill at any moment leaves both or neither. `send` hands the queue to the server in order.
public struct SQLiteOutbox: Sendable {
    private let database: AppDatabase
    public let now: @Sendable () -> Date

    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    /// Makes, applies and queues one write. A write the replica refuses (a lesson of a course
    /// not enrolled in) is not queued: the refusal is returned, and nothing is kept. `time`:
    /// when the learner made it, if a screen took the instant (a grade its undo names);
    /// `settings`: the learner's review settings, for a kind that schedules cards.
    public func record(_ kind: OperationKind, userID: UserID, at time: Date? = nil, settings: ReviewSettings = .default)
        async throws(AppError) -> (SyncOperation, OperationOutcome)
    {
        // The replica's clock (what a time far ahead is clamped to) is the wall's, whatever
        // instant the write names.
        let now = now()
        return try await database.write { db in
            var clock = try Self.clock(in: db)
            let operation = SyncOperation(id: .random(), time: clock.tick(now: time ?? now), kind: kind, settings: settings)
            try Self.save(clock, in: db)
            let outcome = try SQLiteOperationRepository.apply(operation, userID: userID, now: now, in: db)
            if case .refused = outcome { return (operation, outcome) }
            try Self.queue(operation, userID: userID, in: db)
            return (operation, outcome)
        }
    }

    /// Queues an answer the replica cannot check: the right choices are the server's until
    /// it reveals them, so nothing is applied here; the answer waits in the queue, and
    /// `pendingAnswers` shows it meanwhile. Refused, with nothing queued, unless the learner
    /// holds a place in the course, the lesson's questions are saved here, and `chosen` are
    /// choices of the question (the checks the server makes before its own). Nil, and nothing
    /// queued, when the question has an answer here or in the queue: the first one stands.
    public func queueAnswer(
        _ chosen: Set<Int>, to ref: QuestionRef, userID: UserID, at time: StudyTime, settings: ReviewSettings = .default
    ) async throws(AppError) -> SyncOperation? {
        try await database.write { db in
            let answered = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM answer WHERE user_id = ? AND course_id = ? AND lesson = ? AND question = ?",
                arguments: [userID.rawValue, ref.courseID.rawValue, ref.lesson, ref.question])
            guard answered != true, try Self.queuedAnswer(to: ref, userID: userID, in: db) == nil else { return nil }
            let status = try String.fetchOne(
                db, sql: "SELECT status FROM enrollment WHERE user_id = ? AND course_id = ?",
                arguments: [userID.rawValue, ref.courseID.rawValue])
            let questions = try SQLiteLearningRepository.content(ref.courseID, ref.lesson, in: db, ifThere: true).questions
            _ = try LearningRules.answer(
                chosen, to: ref, question: questions.indices.contains(ref.question) ? questions[ref.question] : nil,
                holdsPlace: status.map { $0 != EnrollmentStatus.dropped.rawValue } ?? false, existing: nil, userID: userID, time: time)
            var clock = try Self.clock(in: db)
            let operation = SyncOperation(
                id: .random(), time: clock.tick(now: time.now),
                kind: .answer(ref, chosen: chosen, secondsFromGMT: time.secondsFromGMT), settings: settings)
            try Self.save(clock, in: db)
            try Self.queue(operation, userID: userID, in: db)
            return operation
        }
    }

    /// The answers in the course queued, or sent and not yet read back checked: unchecked.
    public func pendingAnswers(userID: UserID, courseID: CourseID) async throws(AppError) -> [Answer] {
        try await database.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT operation FROM outbox WHERE user_id = ?
                    AND json_extract(operation, '$.kind') = 'answer' AND json_extract(operation, '$.courseID') = ? ORDER BY seq
                    """, arguments: [userID.rawValue, courseID.rawValue]
            ).compactMap { text in
                guard case .answer(let ref, let chosen, _) = try Self.operation(text).kind, ref.courseID == courseID else { return nil }
                return Answer.unchecked(chosen, to: ref)
            }
        }
    }

    /// The id of the answer to `ref` in the outbox, queued or sent, if any.
    static func queuedAnswer(to ref: QuestionRef, userID: UserID, in db: Database) throws -> String? {
        try String.fetchOne(
            db,
            sql: """
                SELECT id FROM outbox WHERE user_id = ? AND json_extract(operation, '$.kind') = 'answer'
                AND json_extract(operation, '$.courseID') = ? AND json_extract(operation, '$.lesson') = ?
                AND json_extract(operation, '$.question') = ?
                """, arguments: [userID.rawValue, ref.courseID.rawValue, ref.lesson, ref.question])
    }

    /// The learner's queued operations, oldest first.
    public func pending(userID: UserID, limit: Int = 200) async throws(AppError) -> [SyncOperation] {
        try await database.read { db in
            try String.fetchAll(
                db, sql: "SELECT operation FROM outbox WHERE user_id = ? AND sent = 0 ORDER BY seq LIMIT ?",
                arguments: [userID.rawValue, limit]
            ).map(Self.operation)
        }
    }

    private static func operation(_ text: String) throws -> SyncOperation {
        guard let operation = try? JSONDecoder().decode(OperationFields.self, from: Data(text.utf8)).operation else {
            throw DamagedRow(description: "an outbox operation that does not read back")
        }
        return operation
    }

    /// How many wait to be sent (`⇡ N to sync`).
    public func count(userID: UserID) async throws(AppError) -> Int {
        try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox WHERE user_id = ? AND sent = 0", arguments: [userID.rawValue]) ?? 0
        }
    }

    /// The server has these: they leave the queue. An answer it checked stays, marked sent,
    /// until the replica reads it back checked (`SQLiteReplica.adoptLearning`): it shows
    /// answered meanwhile, and is never answered twice.
    public func acknowledge(_ answered: [(SyncOperation, OperationOutcome)]) async throws(AppError) {
        guard !answered.isEmpty else { return }
        try await database.write { db in
            for (operation, outcome) in answered {
                if case .answer = operation.kind, Self.checks(outcome) {
                    try db.execute(sql: "UPDATE outbox SET sent = 1 WHERE id = ?", arguments: [operation.id.rawValue])
                } else {
                    try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [operation.id.rawValue])
                }
            }
        }
    }

    /// What a `send` did: how many the server answered, the refused ones (rolled back on
    /// the server's word: the replica is to read the server's truth again), and the failure
    /// that stopped it, if any (the rest stay queued).
    public struct Sent: Sendable {
        public var answered = 0
        /// The courses of the answers the server checked (applied, or kept an earlier one):
        /// only the server's reading of them reveals the right choices.
        public var checkedAnswers: Set<CourseID> = []
        public var refused: [(SyncOperation, AppError)] = []
        public var failure: AppError?
    }

    /// Sends the queue to `server` in order, in batches, acknowledging each answered one;
    /// stops at a failure (the rest are sent next time, and a repeat is answered the same).
    public func send(to server: any OperationRepository, userID: UserID) async -> Sent {
        var sent = Sent()
        while true {
            let batch: [SyncOperation]
            do {
                batch = try await pending(userID: userID)
            } catch {
                sent.failure = error
                return sent
            }
            guard !batch.isEmpty else { return sent }
            let (outcomes, failure) = await server.apply(batch, userID: userID)
            let answered = zip(batch, outcomes).compactMap { operation, outcome in outcome.map { (operation, $0) } }
            for (operation, outcome) in answered {
                if case .refused(let error) = outcome {
                    sent.refused.append((operation, error))
                } else if case .answer(let ref, _, _) = operation.kind, Self.checks(outcome) {
                    sent.checkedAnswers.insert(ref.courseID)
                }
            }
            do {
                try await acknowledge(answered)
            } catch {
                sent.failure = error
                return sent
            }
            sent.answered += answered.count
            if let failure {
                sent.failure = failure
                return sent
            }
        }
    }

    /// Whether the server holds a checked answer after `outcome` of an answer: this one, or
    /// the one it kept before.
    private static func checks(_ outcome: OperationOutcome) -> Bool {
        switch outcome {
        case .applied, .superseded: true
        case .refused, .conflicting: false
        }
    }

    private static func queue(_ operation: SyncOperation, userID: UserID, in db: Database) throws {
        let fields = String(decoding: try JSONEncoder().encode(OperationFields(operation)), as: UTF8.self)
        try db.execute(
            sql: "INSERT INTO outbox (user_id, id, operation) VALUES (?, ?, ?)",
            arguments: [userID.rawValue, operation.id.rawValue, fields])
    }

    /// This replica's clock: made with a random node name the first time.
    private static func clock(in db: Database) throws -> HybridClock {
        if let row = try Row.fetchOne(db, sql: "SELECT node, last FROM hybrid_clock WHERE id = 1") {
            let reader = RowReader(row: row, what: "hybrid clock")
            return HybridClock(node: try reader.string("node"), last: try reader.optionalString("last").flatMap(HybridTime.init))
        }
        let node = "t-" + String(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12))
        return HybridClock(node: node)
    }

    private static func save(_ clock: HybridClock, in db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO hybrid_clock (id, node, last) VALUES (1, ?, ?)", arguments: [clock.node, clock.last?.description])
    }
}
