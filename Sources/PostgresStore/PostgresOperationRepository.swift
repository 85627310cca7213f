import Foundation
import Logging
import PostgresNIO
import SharedKernel

/// Terminals' queued writes in PostgreSQL: each in one transaction with its record in
/// `applied_operation`, merged by the SharedKernel's `MergeRules`. The learner's row is locked
/// first (`PostgresDatabase.transaction(_:learner:_:)`), so one learner's operations take turns
/// on every server: an id sent to two servers at once is applied once.
public struct PostgresOperationRepository: OperationRepository {
    private let database: PostgresDatabase
    /// The store's now: no operation is later than it (`HybridTime.clamped`).
    public let now: @Sendable () -> Date

    public init(database: PostgresDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    public func apply(_ operation: SyncOperation, userID: UserID) async throws(AppError) -> OperationOutcome {
        let logger = database.logger
        let now = now()
        return try await database.transaction(.saving, learner: userID) { connection in
            guard let outcome = try await Self.run([operation], userID: userID, now: now, in: connection, logger: logger).first else {
                throw AppError.storage(.saving, detail: "an operation without its outcome")
            }
            return outcome
        }
    }

    /// A batch in one transaction (a refusal leaves the others: it comes before any write of
    /// its operation), so a week offline costs one commit per batch, not one per write.
    /// A failure for now rolls the whole batch back: none answered, all sent again.
    public func apply(_ operations: [SyncOperation], userID: UserID) async -> (outcomes: [OperationOutcome?], failure: AppError?) {
        guard !operations.isEmpty else { return ([], nil) }
        let logger = database.logger
        let now = now()
        do {
            let outcomes = try await database.transaction(.saving, learner: userID) { connection in
                try await Self.run(operations, userID: userID, now: now, in: connection, logger: logger)
            }
            return (outcomes.map(Optional.some), nil)
        } catch {
            return (Array(repeating: nil, count: operations.count), error)
        }
    }

    /// The operations in order, inside a transaction. What they need to be decided (their ids'
    /// records, their courses, their items' times, their favourites, cards and enrollments)
    /// is read for all of them in a few statements first, each is decided in memory, and what
    /// they changed is written for all of them in a few at the end (`OperationBatch`): a batch
    /// of 200 costs about ten statements, where each operation cost one to ten in turn
    /// (`PostgresOperationCostTests` counts them). Joining and leaving still cost their own.
    private static func run(_ operations: [SyncOperation], userID: UserID, now: Date, in connection: PostgresConnection, logger: Logger)
        async throws -> [OperationOutcome]
    {
        var batch = try await OperationBatch.read(operations, userID: userID, now: now, in: connection, logger: logger)
        let deferred = PostgresChangeRows.Deferred()
        var outcomes: [OperationOutcome] = []
        try await PostgresChangeRows.$deferred.withValue(deferred) {
            for operation in operations {
                outcomes.append(
                    try await apply(
                        operation, userID: userID, now: now, batch: &batch, deferred: deferred, in: connection,
                        logger: logger
                    ))
            }
        }
        try await batch.write(userID: userID, now: now, in: connection, logger: logger)
        // Each change once, written as the transaction's last statement.
        try await PostgresChangeRows.record(deferred.noted, in: connection, logger: logger)
        return outcomes
    }

    /// One operation of a batch, inside its transaction.
    private static func apply(
        _ operation: SyncOperation, userID: UserID, now: Date, batch: inout OperationBatch,
        deferred: PostgresChangeRows.Deferred, in connection: PostgresConnection, logger: Logger
    ) async throws -> OperationOutcome {
        if let recorded = try batch.recorded(operation) { return recorded }
        let time = operation.time.clamped(notAfter: now)
        let item = MergeRules.item(of: operation.kind)
        var outcome: OperationOutcome
        if let courseID = operation.kind.courseID, !batch.courses.contains(courseID.rawValue) {
            // A course that is gone refuses every operation on it, whatever the times.
            outcome = .refused(.courseNotFound(courseID))
        } else if let item, !MergeRules.replaces(time, stored: batch.times[item]) {
            outcome = .superseded
        } else {
            // A refusal comes before the operation's first write (`perform`), so it leaves none
            // and needs no savepoint; its record stays.
            let noted = deferred.count
            do {
                outcome = try await perform(
                    operation.kind, at: time, settings: operation.settings, userID: userID, batch: &batch, in: connection,
                    logger: logger)
                if let item { batch.stamp(item, time) }
            } catch let error as AppError where OperationRecord.isFinal(error) {
                deferred.rollBack(to: noted)
                outcome = .refused(error)
            }
        }
        batch.record(operation, outcome)
        return outcome
    }

    /// One operation's writes. Every kind reads, decides (where a refusal is thrown), then
    /// writes, so a refusal leaves nothing to take back: a savepoint per operation was two of
    /// a merged review's seven round trips. A failing statement fails the whole batch. Grades
    /// and undos, lesson marks, favourites and names change `batch` only, written at its end.
    private static func perform(
        _ kind: OperationKind, at time: HybridTime, settings: ReviewSettings, userID: UserID, batch: inout OperationBatch,
        in connection: PostgresConnection, logger: Logger
    ) async throws -> OperationOutcome {
        switch kind {
        case .favourite(let courseID, let isFavourite):
            // Noted only when it changed something.
            if batch.favourite(isFavourite, courseID: courseID, at: time.date) {
                try await PostgresChangeRows.record([.favourite(userID, courseID)], in: connection, logger: logger)
            }
        case .lesson(let courseID, let number, let done):
            try await batch.enrollments.read(courseID, userID: userID, in: connection, logger: logger)
            try batch.enrollments.mark(MarkLesson(number, done: done, userID: userID, courseID: courseID, now: time.date))
            try await PostgresChangeRows.record([.enrollment(userID, courseID)], in: connection, logger: logger)
        case .enroll(let courseID):
            // Joining and leaving read and write enrollments in the database: the marks first.
            try await batch.enrollments.write(in: connection, logger: logger)
            do {
                try await PostgresEnrollmentRepository.write(
                    Enroll(userID: userID, courseID: courseID, now: time.date), in: connection, logger: logger)
            } catch AppError.refused(.alreadyEnrolled) {
                return .superseded
            }
        case .unenroll(let courseID):
            try await batch.enrollments.write(in: connection, logger: logger)
            do {
                try await PostgresEnrollmentRepository.write(Unenroll(userID: userID, courseID: courseID), in: connection, logger: logger)
            } catch AppError.notEnrolled {
                return .superseded
            }
        case .name(let raw):
            batch.rename(to: try ProfileName.checked(raw))
            try await PostgresChangeRows.record([.profile(userID)], in: connection, logger: logger)
        case .answer(let ref, let chosen, let offset):
            try await batch.enrollments.read(ref.courseID, userID: userID, in: connection, logger: logger)
            let time = StudyTime(now: time.date, secondsFromGMT: offset)
            guard
                try batch.cards.answer(
                    chosen, to: ref, at: time, holdsPlace: try batch.enrollments.holdsPlace(ref.courseID), userID: userID,
                    settings: settings) == .applied
            else { return .superseded }
            batch.enrollments.answered(ref.courseID, at: time.now)
            try await PostgresChangeRows.record([.learning(userID, ref.courseID)], in: connection, logger: logger)
        case .review(let ref, let grade, let offset):
            guard
                try batch.cards.review(
                    ReviewGrading(grade, at: time.date), of: ref, userID: userID, secondsFromGMT: offset, settings: settings)
            else { return .superseded }
            try await PostgresChangeRows.record([.learning(userID, nil)], in: connection, logger: logger)
        case .undoReview(let ref, let reviewedAt):
            try batch.cards.undo(ref, reviewedAt: reviewedAt, userID: userID, settings: settings)
            try await PostgresChangeRows.record([.learning(userID, nil)], in: connection, logger: logger)
        }
        return .applied
    }
}

/// The time of each latest-wins item of a learner (`merge_time`).
enum PostgresMergeTimes {
    static func time(of item: String, userID: UserID, in connection: PostgresConnection, logger: Logger) async throws -> HybridTime? {
        try await connection.query(
            "SELECT time FROM merge_time WHERE user_id = \(userID.rawValue) AND item = \(item)", logger: logger
        ).decode(String.self).first(where: { _ in true }).flatMap(HybridTime.init)
    }

    static func stamp(_ item: String, _ time: HybridTime, userID: UserID, in connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            INSERT INTO merge_time (user_id, item, time) VALUES (\(userID.rawValue), \(item), \(time.description))
            ON CONFLICT (user_id, item) DO UPDATE SET time = excluded.time
            """, logger: logger)
    }

    /// A write through the API's own routes happens now, on the server's clock: a queued
    /// operation made before it does not undo it.
    static func stampNow(_ kind: OperationKind, userID: UserID, at now: Date, in connection: PostgresConnection, logger: Logger)
        async throws
    {
        guard let item = MergeRules.item(of: kind) else { return }
        let time = HybridTime(now, node: "server")
        if MergeRules.replaces(time, stored: try await Self.time(of: item, userID: userID, in: connection, logger: logger)) {
            try await stamp(item, time, userID: userID, in: connection, logger: logger)
        }
    }
}
