import Foundation
import SharedKernel

// MARK: - OperationRepository, by the SharedKernel's MergeRules over this store

extension InMemoryStore {
    /// One actor turn is the operation's transaction: every refusal is thrown before anything
    /// is changed, so a refused operation leaves only its record.
    public func apply(_ operation: SyncOperation, userID: UserID) async throws(AppError) -> OperationOutcome {
        try await record(.apply(operation, userID))
        if let recorded = appliedOperations[userID]?[operation.id] {
            return recorded.fingerprint == operation.fingerprint ? recorded.outcome : .conflicting
        }
        guard users[userID] != nil else { throw .notSignedIn }
        let outcome: OperationOutcome
        do {
            outcome = try perform(operation.kind, at: operation.time.clamped(notAfter: now()), settings: operation.settings, userID: userID)
        } catch  where OperationRecord.isFinal(error) {
            outcome = .refused(error)
        }
        appliedOperations[userID, default: [:]][operation.id] = (operation.fingerprint, outcome)
        return outcome
    }

    /// The outcome kept for operation `id` of `userID`; nil when it never arrived.
    public func appliedOutcome(of id: OperationID, userID: UserID) -> OperationOutcome? {
        appliedOperations[userID]?[id]?.outcome
    }

    private func perform(_ kind: OperationKind, at time: HybridTime, settings: ReviewSettings, userID: UserID) throws(AppError)
        -> OperationOutcome
    {
        if let courseID = kind.courseID, catalog[courseID] == nil { throw .courseNotFound(courseID) }
        if let item = MergeRules.item(of: kind) {
            guard MergeRules.replaces(time, stored: mergeTimes[userID]?[item]) else { return .superseded }
        }
        switch kind {
        case .favourite(let courseID, let isFavourite):
            let changed =
                isFavourite
                ? favourites[userID, default: []].insert(courseID).inserted : favourites[userID]?.remove(courseID) != nil
            if changed { note(.favourite(userID, courseID)) }
        case .lesson(let courseID, let number, let done):
            _ = try perform(MarkLesson(number, done: done, userID: userID, courseID: courseID, now: time.date))
        case .enroll(let courseID):
            do {
                _ = try perform(Enroll(userID: userID, courseID: courseID, now: time.date))
            } catch .refused(.alreadyEnrolled) {
                return .superseded
            }
        case .unenroll(let courseID):
            do {
                _ = try perform(Unenroll(userID: userID, courseID: courseID))
            } catch .notEnrolled {
                return .superseded
            }
        case .name(let raw):
            users[userID]?.user.name = try ProfileName.checked(raw)
            note(.profile(userID))
        case .answer(let ref, let chosen, let offset):
            return try mergeAnswer(
                chosen, to: ref, userID: userID, at: StudyTime(now: time.date, secondsFromGMT: offset), settings: settings)
        case .review(let ref, let grade, let offset):
            guard let current = storedAnswers[userID]?[ref]?.card else { throw .noSuchLesson(ref.courseID, ref.lesson) }
            let grading = ReviewGrading(grade, at: time.date)
            guard !LearningRules.isRepeat(grading, in: cardLog(ref, userID: userID)) else { return .superseded }
            let later = cardLog(ref, userID: userID).filter { $0.reviewedAt > grading.reviewedAt }
            let merged = try LearningRules.insert(
                grading, later: later, current: current, ref: ref, userID: userID, settings: settings)
            replaceLog(of: ref, userID: userID, from: grading.reviewedAt, inclusive: false, with: merged.entries)
            storedAnswers[userID]?[ref]?.card = merged.schedule
            reviewDays[userID, default: []].insert(LearnerDay(grading.reviewedAt, secondsFromGMT: offset))
            note(.learning(userID, nil))
        case .undoReview(let ref, let reviewedAt):
            let second = Date(timeIntervalSince1970: reviewedAt.timeIntervalSince1970.rounded(.down))
            let from = cardLog(ref, userID: userID).filter { $0.reviewedAt >= second }
            guard let taken = from.first, taken.reviewedAt == second else { throw .nothingToUndo(ref) }
            let merged = LearningRules.remove(taken, later: Array(from.dropFirst()), ref: ref, userID: userID, settings: settings)
            replaceLog(of: ref, userID: userID, from: second, inclusive: true, with: merged.entries)
            storedAnswers[userID]?[ref]?.card = merged.schedule
            note(.learning(userID, nil))
        }
        if let item = MergeRules.item(of: kind) { mergeTimes[userID, default: [:]][item] = time }
        return .applied
    }

    private func mergeAnswer(
        _ chosen: Set<Int>, to ref: QuestionRef, userID: UserID, at time: StudyTime, settings: ReviewSettings
    ) throws(AppError) -> OperationOutcome {
        let questions = (storedLessons(ref.courseID) ?? []).dropFirst(ref.lesson - 1).first?.content?.questions ?? []
        let decided = try LearningRules.answer(
            chosen, to: ref, question: ref.lesson >= 1 && questions.indices.contains(ref.question) ? questions[ref.question] : nil,
            holdsPlace: storedEnrollment(userID, ref.courseID)?.holdsPlace ?? false, existing: nil, userID: userID, time: time,
            settings: settings)
        let kept = storedAnswers[userID]?[ref] != nil
        guard !kept || MergeRules.answerReplaces(time.now, stored: answerTimes[userID]?[ref]), let card = decided.newCard else {
            return .superseded
        }
        let log = cardLog(ref, userID: userID)
        let replayed = LearningRules.replay(
            log.map { ReviewGrading($0.grade, at: $0.reviewedAt) }, from: card, ref: ref, userID: userID, settings: settings)
        replaceLog(of: ref, userID: userID, from: .distantPast, inclusive: true, with: replayed.entries)
        storedAnswers[userID, default: [:]][ref] = (decided.answer, replayed.schedule, time.day)
        answerTimes[userID, default: [:]][ref] = time.now
        storedEnrollmentIndex(userID, ref.courseID).map { enrollments[$0].lastActiveAt = max(enrollments[$0].lastActiveAt, time.now) }
        note(.learning(userID, ref.courseID))
        return .applied
    }

    /// The card's log in time order (then as written).
    private func cardLog(_ ref: QuestionRef, userID: UserID) -> [ReviewLogEntry] {
        (reviewLog[userID] ?? []).enumerated().filter { $0.element.ref == ref }
            .sorted { ($0.element.reviewedAt, $0.offset) < ($1.element.reviewedAt, $1.offset) }.map(\.element)
    }

    /// The card's entries from `from` on (after it, unless `inclusive`) replaced by `entries`.
    private func replaceLog(of ref: QuestionRef, userID: UserID, from: Date, inclusive: Bool, with entries: [ReviewLogEntry]) {
        reviewLog[userID, default: []].removeAll { $0.ref == ref && (inclusive ? $0.reviewedAt >= from : $0.reviewedAt > from) }
        reviewLog[userID, default: []].append(contentsOf: entries)
    }

    /// A write through the ports' own calls happens now: a queued operation made before it
    /// does not undo it.
    func stampNow(_ kind: OperationKind, userID: UserID) {
        guard let item = MergeRules.item(of: kind) else { return }
        let time = HybridTime(now(), node: "server")
        if MergeRules.replaces(time, stored: mergeTimes[userID]?[item]) { mergeTimes[userID, default: [:]][item] = time }
    }
}
