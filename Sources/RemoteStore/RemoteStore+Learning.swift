import EduGoAPI
import Foundation
import Logging
import SharedKernel

// MARK: - LearningRepository

/// Lessons, answers and reviews over the API. The learner's time (`StudyTime`: the instant in
/// whole seconds and their UTC offset) goes with every call that needs one: the server never
/// guesses it from its own clock. Everything the server sends passes SPEC's limits
/// (`LearningMapping`): a lesson, a deck's counts or a schedule out of range is the server
/// answering garbage (connectivity); an answer or card out of range in a list is left out and
/// logged.
extension RemoteStore: LearningRepository {
    /// The most cards one request gives (the API clamps `limit` into 0–100).
    static let deckPage = 100

    /// Read once per session (`LessonCache`): a lesson is its course's, the same for everyone.
    /// After news of an import, the one kept is asked again with its `ETag`.
    public func lessonContent(courseID: CourseID, lesson: Int) async throws(AppError) -> LessonContent {
        let key = LessonCache.Key(courseID: courseID, lesson: lesson)
        let kept = lessons.kept(key)
        if let kept, !kept.stale { return kept.content }
        guard lesson >= 1 else { throw .noSuchLesson(courseID, lesson) }
        let answer: Revalidated<Components.Schemas.LessonContent>
        do {
            answer = try await open { client in
                let path = Operations.GetLessonContent.Input.Path(courseId: courseID.rawValue, lesson: Int64(lesson))
                switch try await client.getLessonContent(path: path, headers: .init(ifNoneMatch: kept?.etag)) {
                case .notModified: return .notModified
                case .ok(let ok): return .sent(try ok.body.json, etag: ok.headers.eTag)
                case let other:
                    _ = try other.ok
                    throw RemoteFailure.unreachable(detail: "an answer the lesson route does not give")
                }
            }
        } catch {
            throw Self.appError(error, course: courseID, lesson: lesson)
        }
        switch answer {
        case .notModified:
            guard let kept, kept.etag != nil else {
                throw refusedAnswer("304 for lesson \(lesson) of \(courseID.rawValue.debugDescription), which this terminal never had")
            }
            lessons.confirm(key)
            return kept.content
        case .sent(let sent, let etag):
            let content: LessonContent
            do {
                content = try LessonContent.checked(sent)
            } catch {
                throw refusedAnswer("lesson \(lesson) of \(courseID.rawValue.debugDescription): \(error)")
            }
            lessons.keep(content, etag: etag, of: key)
            return content
        }
    }

    public func answers(userID: UserID, courseID: CourseID) async throws(AppError) -> [Answer] {
        let list: Components.Schemas.AnswerList
        do {
            list = try await authorized(as: userID) { client in
                try await client.listAnswers(path: .init(courseId: courseID.rawValue)).ok.body.json
            }
        } catch {
            throw Self.appError(error, course: courseID)
        }
        return list.answers.compactMap { sent -> Answer? in
            do throws(RefusedLearning) {
                let answer = try Answer.checked(sent)
                guard answer.ref.courseID == courseID else { throw RefusedLearning(problem: "an answer in another course") }
                return answer
            } catch {
                requests.logger.warning("refused an answer from \(requests.host): \(error)")
                return nil
            }
        }
    }

    public func cards(userID: UserID, courseID: CourseID) async throws(AppError) -> [CourseCard] {
        let list: Components.Schemas.CardList
        do {
            list = try await authorized(as: userID) { client in
                try await client.listCards(path: .init(courseId: courseID.rawValue)).ok.body.json
            }
        } catch {
            throw Self.appError(error, course: courseID)
        }
        return list.cards.compactMap { sent -> CourseCard? in
            do throws(RefusedLearning) {
                let ref = try QuestionRef.checked(courseID: courseID.rawValue, lesson: sent.lesson, question: sent.question)
                return CourseCard(ref: ref, schedule: try CardSchedule.checked(sent.schedule))
            } catch {
                requests.logger.warning("refused a review card from \(requests.host): \(error)")
                return nil
            }
        }
    }

    public func answer(_ chosen: Set<Int>, to ref: QuestionRef, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> Answer
    {
        // What no question can take is refused here as the rules refuse it, unsent.
        guard ref.lesson >= 1, ref.question >= 0 else { throw .noSuchLesson(ref.courseID, ref.lesson) }
        guard !chosen.isEmpty, chosen.allSatisfy({ (0..<ContentLimits.choices.upperBound).contains($0) }) else {
            throw .invalidAnswer(ref)
        }
        let path = Operations.AnswerQuestion.Input.Path(
            courseId: ref.courseID.rawValue, lesson: Int64(ref.lesson), question: Int64(ref.question))
        let body = Components.Schemas.AnswerRequest(
            chosen: chosen.sorted().map(Int64.init), at: time.now, utcOffset: Int64(time.secondsFromGMT), settings: .sent(settings))
        let sent: Components.Schemas.Answer
        do {
            sent = try await authorized(as: userID) { client in try await client.answerQuestion(path: path, body: .json(body)).ok.body.json
            }
        } catch {
            // 422 here is the rules' refusal of the choices (a time out of range is 400, and the
            // path is ours).
            if case .api(422, .invalidRequest?, _, _) = error { throw .invalidAnswer(ref) }
            throw Self.appError(error, course: ref.courseID, lesson: ref.lesson)
        }
        do throws(RefusedLearning) {
            let answer = try Answer.checked(sent)
            guard answer.ref == ref else { throw RefusedLearning(problem: "an answer to another question") }
            return answer
        } catch {
            throw refusedAnswer("the answer to \(ref): \(error)")
        }
    }

    public func reviewDeck(userID: UserID, at time: StudyTime, limit: Int, settings: ReviewSettings) async throws(AppError)
        -> ReviewDeck
    {
        let wanted = min(max(0, limit), Self.deckPage)
        // The defaults unsaid, as to a server older than settings.
        let custom = settings != .default
        let query = Operations.GetReviewDeck.Input.Query(
            at: time.now, utcOffset: Int64(time.secondsFromGMT), retention: custom ? settings.retention : nil,
            learningSteps: custom ? ReviewStepsText.text(settings.learningSteps) : nil,
            relearningSteps: custom ? ReviewStepsText.text(settings.relearningSteps) : nil, limit: Int64(wanted))
        let deck: Components.Schemas.ReviewDeck
        do {
            deck = try await authorized(as: userID) { client in try await client.getReviewDeck(query: query).ok.body.json }
        } catch {
            throw error.appError
        }
        var checked: ReviewDeck
        do {
            checked = try ReviewDeck.checkedCounts(deck, at: time, wanted: wanted, largest: Self.largestCount)
        } catch {
            throw refusedAnswer("a deck of \(deck.cards.count) cards (\(wanted) asked for): \(error)")
        }
        checked.cards = deck.cards.compactMap { sent -> ReviewCard? in
            do throws(RefusedLearning) {
                return try ReviewCard.checked(sent)
            } catch {
                requests.logger.warning("refused a review card from \(requests.host): \(error)")
                return nil
            }
        }
        return checked
    }

    public func review(_ ref: QuestionRef, grade: ReviewGrade, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> CardSchedule
    {
        let body = Components.Schemas.ReviewRequest(
            courseId: ref.courseID.rawValue, lesson: Int64(ref.lesson), question: Int64(ref.question),
            grade: Components.Schemas.ReviewRequest.GradePayload(rawValue: grade.rawValue) ?? .again, at: time.now,
            utcOffset: Int64(time.secondsFromGMT), settings: .sent(settings))
        let sent: Components.Schemas.CardSchedule
        do {
            sent = try await authorized(as: userID) { client in try await client.reviewCard(body: .json(body)).ok.body.json }
        } catch {
            if case .api(422, .cardNotDue?, _, _) = error { throw .notDue(ref) }
            throw Self.appError(error, course: ref.courseID, lesson: ref.lesson)
        }
        do {
            return try CardSchedule.checked(sent)
        } catch {
            throw refusedAnswer("the schedule of \(ref): \(error)")
        }
    }

    public func undoReview(_ ref: QuestionRef, reviewedAt: Date, userID: UserID) async throws(AppError) -> CardSchedule {
        let body = Components.Schemas.ReviewUndoRequest(
            courseId: ref.courseID.rawValue, lesson: Int64(ref.lesson), question: Int64(ref.question),
            reviewedAt: Date(timeIntervalSince1970: reviewedAt.timeIntervalSince1970.rounded(.down)))
        let sent: Components.Schemas.CardSchedule
        do {
            sent = try await authorized(as: userID) { client in try await client.undoReview(body: .json(body)).ok.body.json }
        } catch {
            if case .api(422, .nothingToUndo?, _, _) = error { throw .nothingToUndo(ref) }
            throw Self.appError(error, course: ref.courseID, lesson: ref.lesson)
        }
        do {
            return try CardSchedule.checked(sent)
        } catch {
            throw refusedAnswer("the schedule of \(ref) undone: \(error)")
        }
    }

    public func memory(userID: UserID, at time: StudyTime) async throws(AppError) -> MemoryPicture {
        let query = Operations.GetMemory.Input.Query(at: time.now, utcOffset: Int64(time.secondsFromGMT))
        let sent: Components.Schemas.MemoryPicture
        do {
            sent = try await authorized(as: userID) { client in try await client.getMemory(query: query).ok.body.json }
        } catch {
            throw error.appError
        }
        do {
            return try MemoryPicture.checked(sent, largest: Self.largestCount)
        } catch {
            throw refusedAnswer("a memory picture: \(error)")
        }
    }

    public func habit(userID: UserID, on day: LearnerDay, secondsFromGMT: Int) async throws(AppError) -> LearningHabit {
        let query = Operations.GetHabit.Input.Query(day: day.iso, utcOffset: Int64(secondsFromGMT))
        let sent: Components.Schemas.Habit
        do {
            sent = try await authorized(as: userID) { client in try await client.getHabit(query: query).ok.body.json }
        } catch {
            throw error.appError
        }
        // A streak is at most the days it looks back over.
        guard let streak = Int(exactly: sent.streakDays), (0...LearningRules.streakWindow + 1).contains(streak),
            let due = Int(exactly: sent.dueCount), (0...Self.largestCount).contains(due)
        else { throw refusedAnswer("a habit of \(sent.streakDays) days, \(sent.dueCount) due") }
        return LearningHabit(streakDays: streak, dueCount: due, activeToday: sent.activeToday)
    }
}

extension Components.Schemas.ReviewSettings {
    /// The settings to send: none for the defaults, which a server older than settings
    /// (that refuses a field it does not know) takes too.
    static func sent(_ settings: ReviewSettings) -> Self? {
        settings == .default ? nil : .init(settings)
    }

    init(_ settings: ReviewSettings) {
        self.init(
            retention: settings.retention, learningSteps: settings.learningSteps.map(Int64.init),
            relearningSteps: settings.relearningSteps.map(Int64.init))
    }
}
