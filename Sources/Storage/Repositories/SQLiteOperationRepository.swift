import Foundation
import GRDB
import SharedKernel

/// Terminals' queued writes in SQLite: each in one IMMEDIATE transaction with its record in
/// `applied_operation`, merged by the SharedKernel's `MergeRules`.
public struct SQLiteOperationRepository: OperationRepository {
    private let database: AppDatabase
    /// The store's now: no operation is later than it (`HybridTime.clamped`).
    public let now: @Sendable () -> Date

    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    public func apply(_ operation: SyncOperation, userID: UserID) async throws(AppError) -> OperationOutcome {
        let now = now()
        return try await database.write { db in try Self.apply(operation, userID: userID, now: now, in: db) }
    }

    /// A batch in one transaction, each operation in a savepoint of its own (a refusal
    /// leaves the others), so a week offline costs one commit per batch, not one per write.
    /// A failure for now rolls the whole batch back: none answered, all sent again.
    public func apply(_ operations: [SyncOperation], userID: UserID) async -> (outcomes: [OperationOutcome?], failure: AppError?) {
        guard !operations.isEmpty else { return ([], nil) }
        let now = now()
        do {
            let outcomes = try await database.write { db in
                try operations.map { try Self.apply($0, userID: userID, now: now, in: db) }
            }
            return (outcomes, nil)
        } catch {
            return (Array(repeating: nil, count: operations.count), error)
        }
    }

    /// `apply`'s work inside a write transaction (a replica's local write, too).
    static func apply(_ operation: SyncOperation, userID: UserID, now: Date, in db: Database) throws -> OperationOutcome {
        if let recorded = try Self.recorded(operation, userID: userID, in: db) { return recorded }
        guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM user WHERE id = ?"), arguments: [userID.rawValue]) == true else {
            throw AppError.notSignedIn
        }
        var outcome = OperationOutcome.applied
        do {
            // A refusal leaves nothing of the operation's own writes, but its record stays.
            outcome = try Self.inSavepoint(db) {
                try Self.perform(
                    operation.kind, at: operation.time.clamped(notAfter: now), settings: operation.settings, userID: userID, in: db)
            }
        } catch let error as AppError where OperationRecord.isFinal(error) {
            outcome = .refused(error)
        }
        let (code, subject) = OperationRecord.code(of: outcome)
        try db.cachedStatement(
            sql: """
                INSERT INTO applied_operation (user_id, id, fingerprint, code, subject, applied_at) VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            userID.rawValue, operation.id.rawValue, operation.fingerprint, code, subject, Int64(now.timeIntervalSince1970),
        ])
        return outcome
    }

    /// `body` in a savepoint, taken back if it throws. GRDB's `inSavepoint` prepares its
    /// SAVEPOINT and RELEASE anew each time (its authorizer reading them): kept prepared here,
    /// as the operations' own statements are. A rollback that fails throws its own error,
    /// which no caller takes for a refusal.
    private static func inSavepoint<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.cachedStatement(sql: "SAVEPOINT operation").execute()
        do {
            let value = try body()
            try db.cachedStatement(sql: "RELEASE SAVEPOINT operation").execute()
            return value
        } catch {
            // SQLite ended the whole transaction (an interrupt, a full disk): nothing to take back.
            guard db.isInsideTransaction else { throw error }
            try db.cachedStatement(sql: "ROLLBACK TO SAVEPOINT operation").execute()
            try db.cachedStatement(sql: "RELEASE SAVEPOINT operation").execute()
            throw error
        }
    }

    /// The outcome kept for an id seen before: the same again, or `.conflicting` for another
    /// operation under it.
    private static func recorded(_ operation: SyncOperation, userID: UserID, in db: Database) throws -> OperationOutcome? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT fingerprint, code, subject FROM applied_operation WHERE user_id = ? AND id = ?"),
                arguments: [userID.rawValue, operation.id.rawValue])
        else { return nil }
        let reader = RowReader(row: row, what: "applied operation")
        guard try reader.string("fingerprint") == operation.fingerprint else { return .conflicting }
        guard
            let outcome = OperationRecord.outcome(
                code: try reader.string("code"), subject: try reader.string("subject"), of: operation.kind)
        else { throw DamagedRow(description: "applied operation \(operation.id): an outcome not known") }
        return outcome
    }

    private static func perform(_ kind: OperationKind, at time: HybridTime, settings: ReviewSettings, userID: UserID, in db: Database)
        throws -> OperationOutcome
    {
        try checkExists(kind, in: db)
        if let item = MergeRules.item(of: kind) {
            guard MergeRules.replaces(time, stored: try MergeTimes.time(of: item, userID: userID, in: db)) else { return .superseded }
            try MergeTimes.stamp(item, time, userID: userID, in: db)
        }
        switch kind {
        case .favourite(let courseID, let isFavourite):
            try SQLiteFavouritesRepository.set(isFavourite, userID: userID, courseID: courseID, at: time.date, in: db)
        case .lesson(let courseID, let number, let done):
            try SQLiteEnrollmentRepository.write(
                MarkLesson(number, done: done, userID: userID, courseID: courseID, now: time.date), in: db)
        case .enroll(let courseID):
            do {
                try SQLiteEnrollmentRepository.write(Enroll(userID: userID, courseID: courseID, now: time.date), in: db)
            } catch AppError.refused(.alreadyEnrolled) {
                return .superseded
            }
        case .unenroll(let courseID):
            do {
                try SQLiteEnrollmentRepository.write(Unenroll(userID: userID, courseID: courseID), in: db)
            } catch AppError.notEnrolled {
                return .superseded
            }
        case .name(let raw):
            _ = try SQLiteProfileRepository.rename(userID, to: try ProfileName.checked(raw), in: db)
        case .answer(let ref, let chosen, let offset):
            return try SQLiteLearningRepository.mergeAnswer(
                chosen, to: ref, userID: userID, at: StudyTime(now: time.date, secondsFromGMT: offset), settings: settings, in: db)
        case .review(let ref, let grade, let offset):
            guard
                try SQLiteLearningRepository.mergeReview(
                    ReviewGrading(grade, at: time.date), of: ref, userID: userID, secondsFromGMT: offset, settings: settings, in: db)
            else { return .superseded }
        case .undoReview(let ref, let reviewedAt):
            try SQLiteLearningRepository.mergeUndo(ref, reviewedAt: reviewedAt, userID: userID, settings: settings, in: db)
        }
        return .applied
    }

    /// A course that is gone refuses every operation on it, whatever the times (as the
    /// in-memory double and the server's other store do).
    private static func checkExists(_ kind: OperationKind, in db: Database) throws {
        guard let courseID = kind.courseID else { return }
        try CourseRow.requireExisting(courseID, in: db)
    }
}

/// The time of each latest-wins item of a learner (`merge_time`).
enum MergeTimes {
    static func time(of item: String, userID: UserID, in db: Database) throws -> HybridTime? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT time FROM merge_time WHERE user_id = ? AND item = ?"), arguments: [userID.rawValue, item]
        ).flatMap(HybridTime.init)
    }

    static func stamp(_ item: String, _ time: HybridTime, userID: UserID, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO merge_time (user_id, item, time) VALUES (?, ?, ?)")
            .execute(arguments: [userID.rawValue, item, time.description])
    }

    /// A write through the API's own routes happens now, on the server's clock: a queued
    /// operation made before it does not undo it.
    static func stampNow(_ kind: OperationKind, userID: UserID, at now: Date, in db: Database) throws {
        guard let item = MergeRules.item(of: kind) else { return }
        let time = HybridTime(now, node: "server")
        if MergeRules.replaces(time, stored: try Self.time(of: item, userID: userID, in: db)) {
            try stamp(item, time, userID: userID, in: db)
        }
    }
}
