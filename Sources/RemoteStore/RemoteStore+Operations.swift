import EduGoAPI
import Foundation
import OpenAPIRuntime
import SharedKernel

// MARK: - OperationRepository

extension RemoteStore: OperationRepository {
    public func apply(_ operation: SyncOperation, userID: UserID) async throws(AppError) -> OperationOutcome {
        let (outcomes, failure) = await apply([operation], userID: userID)
        if let outcome = outcomes.first ?? nil { return outcome }
        throw failure ?? .connectivity
    }

    /// In batches of the server's size, in order; a batch that fails, or an operation the
    /// server did not try, ends the run there.
    public func apply(_ operations: [SyncOperation], userID: UserID) async -> (outcomes: [OperationOutcome?], failure: AppError?) {
        var outcomes: [OperationOutcome?] = []
        outcomes.reserveCapacity(operations.count)
        for start in stride(from: 0, to: operations.count, by: Self.operationsPerBatch) {
            let batch = Array(operations[start..<min(start + Self.operationsPerBatch, operations.count)])
            let results: [Components.Schemas.OperationResult]
            do {
                let body = Components.Schemas.OperationBatch(operations: batch.map(Self.queued))
                results = try await authorized(as: userID) { client in
                    try await client.applyOperations(body: .json(body)).ok.body.json.results
                }
            } catch {
                return (outcomes + Array(repeating: nil, count: operations.count - outcomes.count), error.appError)
            }
            guard results.count == batch.count, zip(results, batch).allSatisfy({ $0.id == $1.id.rawValue }) else {
                let failure = refusedAnswer("\(results.count) operation results for \(batch.count) operations, or out of order")
                return (outcomes + Array(repeating: nil, count: operations.count - outcomes.count), failure)
            }
            for (result, operation) in zip(results, batch) {
                guard let outcome = outcome(of: result, for: operation) else {
                    let failure: AppError = .storage(.saving, detail: result.message ?? "the server did not try \(operation.id)")
                    return (outcomes + Array(repeating: nil, count: operations.count - outcomes.count), failure)
                }
                outcomes.append(outcome)
            }
        }
        return (outcomes, nil)
    }

    /// The server's batch size (`openapi.yaml`).
    static let operationsPerBatch = 200

    /// What the server's answer says became of `operation`; nil for one it did not try.
    private func outcome(of result: Components.Schemas.OperationResult, for operation: SyncOperation) -> OperationOutcome? {
        switch result.status {
        case .applied: return .applied
        case .superseded: return .superseded
        case .conflicting: return .conflicting
        case .notTried: return nil
        case .refused, .invalid:
            // The API says `invalid_request` for an answer that is not the question's choices.
            if case .answer(let ref, _, _) = operation.kind, result.status == .refused, result.error == .invalidRequest {
                return .refused(.invalidAnswer(ref))
            }
            let code = result.error?.rawValue ?? "refused"
            return OperationRecord.outcome(code: code, subject: result.detail ?? "", of: operation.kind)
                ?? .refused(.storage(.saving, detail: "\(code): \(result.message ?? "")"))
        }
    }

    /// The wire's operation: `OperationFields`, the outbox's form, field for field.
    static func queued(_ operation: SyncOperation) -> Components.Schemas.QueuedOperation {
        let fields = OperationFields(operation)
        return Components.Schemas.QueuedOperation(
            id: fields.id, time: fields.time, kind: fields.kind, courseId: fields.courseID, favourite: fields.favourite,
            lesson: fields.lesson.map(Int64.init), done: fields.done, question: fields.question.map(Int64.init),
            chosen: fields.chosen?.map(Int64.init), grade: fields.grade, utcOffset: fields.utcOffset.map(Int64.init),
            reviewedAt: fields.reviewedAt.map { Date(timeIntervalSince1970: Double($0)) }, name: fields.name,
            settings: Components.Schemas.ReviewSettings.sent(operation.settings).map {
                .init(retention: $0.retention, learningSteps: $0.learningSteps, relearningSteps: $0.relearningSteps)
            })
    }
}
