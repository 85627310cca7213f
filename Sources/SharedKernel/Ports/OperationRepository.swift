import Foundation

/// A learner's queued writes (SPEC, remote mode offline), applied by a store once each.
public protocol OperationRepository: Sendable {
    /// Applies `operation` for the learner in one transaction, with its id recorded in it:
    /// by `MergeRules` (latest time per favourite, lesson mark and name; the earliest answer;
    /// a review in its place in the card's log), at its time clamped to the store's now.
    /// Its outcome; for an id seen before, the first outcome again, or `.conflicting` when
    /// the id came with another operation. A refusal for good (a full course) is recorded
    /// as an outcome; a failure for now (`.storage`) is thrown and records nothing.
    func apply(_ operation: SyncOperation, userID: UserID) async throws(AppError) -> OperationOutcome
    /// Applies `operations` in order, each on its own. A failure for now stops there: the
    /// rest are not tried (a later one may need an earlier); each not applied (not tried, or
    /// rolled back with a batch a store applies in one transaction) comes back as `nil`, to
    /// be sent again. A store across a network sends them together.
    func apply(_ operations: [SyncOperation], userID: UserID) async -> (outcomes: [OperationOutcome?], failure: AppError?)
}

extension OperationRepository {
    /// One by one, in order.
    public func apply(_ operations: [SyncOperation], userID: UserID) async -> (outcomes: [OperationOutcome?], failure: AppError?) {
        var outcomes: [OperationOutcome?] = Array(repeating: nil, count: operations.count)
        for (index, operation) in operations.enumerated() {
            do {
                outcomes[index] = try await apply(operation, userID: userID)
            } catch {
                return (outcomes, error)
            }
        }
        return (outcomes, nil)
    }
}
