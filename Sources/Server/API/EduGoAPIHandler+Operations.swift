import EduGoAPI
import Foundation
import HTTPTypes
import SharedKernel

/// `POST /v1/me/operations`: a terminal's queued writes, each applied once by the store's
/// `OperationRepository`, each answered on its own.
extension EduGoAPIHandler {
    /// Operations in one batch, at most: a week offline is sent in several.
    static let operationsPerBatch = 200

    func applyOperations(_ input: Operations.ApplyOperations.Input) async throws -> Operations.ApplyOperations.Output {
        let caller = try await currentCaller()
        guard case .json(let batch) = input.body else { throw APIFailure.invalidRequest(.badRequest, "Send JSON.") }
        guard batch.operations.count <= Self.operationsPerBatch else {
            throw APIFailure.invalidRequest(.badRequest, "Send at most \(Self.operationsPerBatch) operations at once.")
        }
        let texts = languages.texts(accepting: AuthorizationMiddleware.acceptLanguage)
        // Read every one first: those that cannot be read are answered alone, the rest
        // applied together (one transaction; a refusal leaves the others).
        var read: [Result<SyncOperation, APIFailure>] = []
        for sent in batch.operations {
            do {
                read.append(.success(try Self.operation(sent)))
            } catch {
                read.append(.failure(error))
            }
        }
        let valid = read.compactMap { try? $0.get() }
        let (outcomes, failure) = await operations.apply(valid, userID: caller.userID)
        pages?.seatsMoved(
            in: zip(valid, outcomes).compactMap { operation, outcome in
                switch (operation.kind, outcome) {
                case (.enroll(let id), .applied), (.unenroll(let id), .applied): id
                default: nil
                }
            })
        if case .notSignedIn = failure { throw APIFailure.unauthorized }
        var next = outcomes.makeIterator()
        let results = zip(batch.operations, read).map { sent, read -> Components.Schemas.OperationResult in
            switch read {
            case .failure(let error):
                return .init(id: sent.id, status: .invalid, error: error.code, message: texts(error.message))
            case .success:
                guard let outcome = next.next() ?? nil else {
                    return .init(
                        id: sent.id, status: .notTried, error: .unavailable,
                        message: texts("Not tried: an earlier operation could not be saved — send it again."))
                }
                return Self.result(outcome, id: sent.id, texts: texts)
            }
        }
        // Nothing done at all: the whole request failed, as any other route's would.
        if let failure, !valid.isEmpty, outcomes.allSatisfy({ $0 == nil }) { throw APIFailure(failure) }
        return .ok(.init(body: .json(.init(results: results))))
    }

    private static func result(_ outcome: OperationOutcome, id: String, texts: Texts) -> Components.Schemas.OperationResult {
        switch outcome {
        case .applied: .init(id: id, status: .applied)
        case .superseded: .init(id: id, status: .superseded)
        case .conflicting:
            .init(
                id: id, status: .conflicting, error: .invalidRequest,
                message: texts("This id was given to another operation, which stands."))
        case .refused(let error):
            .init(
                id: id, status: .refused, error: APIFailure(error).code, message: texts(error.userMessage),
                detail: Optional(OperationRecord.code(of: outcome).subject).flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    /// The operation `sent` stands for; an `invalid_request` failure naming what is wrong.
    static func operation(_ sent: Components.Schemas.QueuedOperation) throws(APIFailure) -> SyncOperation {
        guard let id = OperationID(sent.id) else {
            throw .invalidRequest(.unprocessableContent, "An operation's id is 8 to 64 characters of A–Z a–z 0–9 - _")
        }
        guard let time = HybridTime(sent.time) else {
            throw .invalidRequest(
                .unprocessableContent, "An operation's time is milliseconds (13 digits), a counter (5 digits) and a node name, joined by -")
        }
        let needs = { (field: String) in
            APIFailure.invalidRequest(.unprocessableContent, "An operation of kind \(sent.kind) needs \(field).")
        }
        let course = { () throws(APIFailure) -> CourseID in
            guard let text = sent.courseId else { throw needs("course_id") }
            return try courseID(text)
        }
        let lesson = { () throws(APIFailure) -> Int in
            guard let number = sent.lesson.flatMap({ Int(exactly: $0) }), CourseLimits.lessons.contains(number) else {
                throw needs("lesson")
            }
            return number
        }
        let question = { () throws(APIFailure) -> QuestionRef in
            let courseID = try course()
            let lesson = try lesson()
            guard let index = sent.question.flatMap({ Int(exactly: $0) }), (0..<ContentLimits.questions.upperBound).contains(index) else {
                throw needs("question")
            }
            return QuestionRef(courseID: courseID, lesson: lesson, question: index)
        }
        let kind: OperationKind
        switch sent.kind {
        case "favourite":
            guard let on = sent.favourite else { throw needs("favourite") }
            kind = .favourite(try course(), isFavourite: on)
        case "lesson":
            guard let done = sent.done else { throw needs("done") }
            kind = .lesson(try course(), number: try lesson(), done: done)
        case "enroll": kind = .enroll(try course())
        case "unenroll": kind = .unenroll(try course())
        case "answer":
            guard let chosen = sent.chosen, chosen.count <= ContentLimits.choices.upperBound else { throw needs("chosen") }
            kind = .answer(try question(), chosen: Set(chosen.map { Int(clamping: $0) }), secondsFromGMT: try utcOffset(sent.utcOffset))
        case "review":
            guard let grade = sent.grade.flatMap(ReviewGrade.init(rawValue:)) else { throw needs("grade: again, hard, good or easy") }
            kind = .review(try question(), grade: grade, secondsFromGMT: try utcOffset(sent.utcOffset))
        case "undo_review":
            guard let at = sent.reviewedAt, let seconds = Int64(exactly: at.timeIntervalSince1970), CardSchedule.instants.contains(seconds)
            else { throw .invalidRequest(.unprocessableContent, "reviewed_at must be a time of the years 0001 to 9999, in whole seconds.") }
            kind = .undoReview(try question(), reviewedAt: at)
        case "name":
            guard let name = sent.name else { throw needs("name") }
            kind = .name(name)
        default:
            throw .invalidRequest(.unprocessableContent, "\(String(sent.kind.prefix(40))) is not a kind of operation this server knows.")
        }
        let sentSettings = sent.settings.map {
            Components.Schemas.ReviewSettings(retention: $0.retention, learningSteps: $0.learningSteps, relearningSteps: $0.relearningSteps)
        }
        return SyncOperation(id: id, time: time, kind: kind, settings: try settings(sentSettings))
    }
}
