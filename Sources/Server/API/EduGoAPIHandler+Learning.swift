import EduGoAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import SharedKernel

// MARK: - Lessons, answers and reviews

extension EduGoAPIHandler {
    /// Public, as the catalog: a lesson is its course's content, the same for every learner.
    func getLessonContent(_ input: Operations.GetLessonContent.Input) async throws -> Operations.GetLessonContent.Output {
        let id = try Self.courseID(input.path.courseId)
        // A number past the syllabus, however large, is the store's `lesson_not_found`.
        let lesson = Int(clamping: input.path.lesson)
        let content = try await call { () async throws(AppError) in try await learning.lessonContent(courseID: id, lesson: lesson) }
        return .ok(.init(body: .json(.init(content))))
    }

    func listAnswers(_ input: Operations.ListAnswers.Input) async throws -> Operations.ListAnswers.Output {
        let caller = try await currentCaller()
        let id = try Self.courseID(input.path.courseId)
        let answers = try await call { () async throws(AppError) in try await learning.answers(userID: caller.userID, courseID: id) }
        return .ok(.init(body: .json(.init(answers: answers.map(Components.Schemas.Answer.init)))))
    }

    func listCards(_ input: Operations.ListCards.Input) async throws -> Operations.ListCards.Output {
        let caller = try await currentCaller()
        let id = try Self.courseID(input.path.courseId)
        let cards = try await call { () async throws(AppError) in try await learning.cards(userID: caller.userID, courseID: id) }
        return .ok(
            .init(
                body: .json(
                    .init(
                        cards: cards.map {
                            .init(lesson: Int64($0.ref.lesson), question: Int64($0.ref.question), schedule: .init($0.schedule))
                        }))))
    }

    func answerQuestion(_ input: Operations.AnswerQuestion.Input) async throws -> Operations.AnswerQuestion.Output {
        let caller = try await currentCaller()
        let id = try Self.courseID(input.path.courseId)
        guard case .json(let request) = input.body else { throw APIFailure.invalidRequest(.badRequest, "Send JSON.") }
        let time = try Self.studyTime(at: request.at, utcOffset: request.utcOffset)
        let ref = QuestionRef(courseID: id, lesson: Int(clamping: input.path.lesson), question: Int(clamping: input.path.question))
        // 1 to 6 different choices (openapi.yaml): a list that a set would quietly shorten is
        // refused, not read as another answer. Whether they are the question's, the rules say.
        let chosen = Set(request.chosen.map { Int(clamping: $0) })
        guard (1...ContentLimits.choices.upperBound).contains(request.chosen.count), chosen.count == request.chosen.count else {
            throw APIFailure(.invalidAnswer(ref))
        }
        let settings = try Self.settings(request.settings)
        let answer = try await call { () async throws(AppError) in
            try await learning.answer(chosen, to: ref, userID: caller.userID, at: time, settings: settings)
        }
        return .ok(.init(body: .json(.init(answer))))
    }

    func getReviewDeck(_ input: Operations.GetReviewDeck.Input) async throws -> Operations.GetReviewDeck.Output {
        let caller = try await currentCaller()
        let time = try Self.studyTime(at: input.query.at, utcOffset: input.query.utcOffset)
        let limit = Int(min(max(input.query.limit ?? Int64(Self.defaultDeckSize), 0), Int64(Self.deckSizes.upperBound)))
        let steps = { (text: String?) throws(APIFailure) -> [Int64]? in
            guard let text else { return nil }
            guard let steps = ReviewStepsText.steps(text) else {
                throw .invalidRequest(.badRequest, "Steps are seconds separated by commas, like 60,600.")
            }
            return steps.map(Int64.init)
        }
        let settings = try Self.settings(
            .init(
                retention: input.query.retention, learningSteps: try steps(input.query.learningSteps),
                relearningSteps: try steps(input.query.relearningSteps)),
            status: .badRequest)
        let deck = try await call { () async throws(AppError) in
            try await learning.reviewDeck(userID: caller.userID, at: time, limit: limit, settings: settings)
        }
        return .ok(.init(body: .json(.init(deck))))
    }

    func reviewCard(_ input: Operations.ReviewCard.Input) async throws -> Operations.ReviewCard.Output {
        let caller = try await currentCaller()
        guard case .json(let request) = input.body else { throw APIFailure.invalidRequest(.badRequest, "Send JSON.") }
        guard CourseLimits.isValidID(request.courseId) else {
            throw APIFailure.invalidRequest(.unprocessableContent, "A course id is 1–64 characters of A–Z a–z 0–9 . _ -")
        }
        let time = try Self.studyTime(at: request.at, utcOffset: request.utcOffset)
        let grade = ReviewGrade(rawValue: request.grade.rawValue) ?? .again
        let ref = QuestionRef(
            courseID: CourseID(request.courseId), lesson: Int(clamping: request.lesson), question: Int(clamping: request.question))
        let settings = try Self.settings(request.settings)
        let schedule = try await call { () async throws(AppError) in
            try await learning.review(ref, grade: grade, userID: caller.userID, at: time, settings: settings)
        }
        return .ok(.init(body: .json(.init(schedule))))
    }

    func undoReview(_ input: Operations.UndoReview.Input) async throws -> Operations.UndoReview.Output {
        let caller = try await currentCaller()
        guard case .json(let request) = input.body else { throw APIFailure.invalidRequest(.badRequest, "Send JSON.") }
        guard CourseLimits.isValidID(request.courseId) else {
            throw APIFailure.invalidRequest(.unprocessableContent, "A course id is 1–64 characters of A–Z a–z 0–9 . _ -")
        }
        guard let seconds = Int64(exactly: request.reviewedAt.timeIntervalSince1970), CardSchedule.instants.contains(seconds) else {
            throw APIFailure.invalidRequest(.badRequest, "reviewed_at must be a time of the years 0001 to 9999, in whole seconds.")
        }
        let ref = QuestionRef(
            courseID: CourseID(request.courseId), lesson: Int(clamping: request.lesson), question: Int(clamping: request.question))
        let schedule = try await call { () async throws(AppError) in
            try await learning.undoReview(ref, reviewedAt: request.reviewedAt, userID: caller.userID)
        }
        return .ok(.init(body: .json(.init(schedule))))
    }

    func getMemory(_ input: Operations.GetMemory.Input) async throws -> Operations.GetMemory.Output {
        let caller = try await currentCaller()
        let time = try Self.studyTime(at: input.query.at, utcOffset: input.query.utcOffset)
        let picture = try await call { () async throws(AppError) in try await learning.memory(userID: caller.userID, at: time) }
        return .ok(.init(body: .json(.init(picture))))
    }

    /// The learner's settings (each left out is the default); one out of its range is
    /// `status` `invalid_request` with the reason.
    static func settings(_ sent: Components.Schemas.ReviewSettings?, status: HTTPResponse.Status = .unprocessableContent)
        throws(APIFailure) -> ReviewSettings
    {
        guard let sent else { return .default }
        let steps = { (sent: [Int64]?, fallback: [Int]) in sent.map { $0.map { Int(clamping: $0) } } ?? fallback }
        do {
            return try ReviewSettings(
                retention: sent.retention ?? ReviewSettings.default.retention,
                learningSteps: steps(sent.learningSteps, ReviewSettings.default.learningSteps),
                relearningSteps: steps(sent.relearningSteps, ReviewSettings.default.relearningSteps))
        } catch {
            throw .invalidRequest(status, error.message)
        }
    }

    func getHabit(_ input: Operations.GetHabit.Input) async throws -> Operations.GetHabit.Output {
        let caller = try await currentCaller()
        let day = try Self.day(input.query.day)
        let offset = try Self.utcOffset(input.query.utcOffset)
        let habit = try await call { () async throws(AppError) in
            try await learning.habit(userID: caller.userID, on: day, secondsFromGMT: offset)
        }
        return .ok(
            .init(
                body: .json(
                    .init(streakDays: Int64(habit.streakDays), dueCount: Int64(habit.dueCount), activeToday: habit.activeToday))))
    }

    static let deckSizes = 0...100
    static let defaultDeckSize = 20
    /// UTC−18:00 to UTC+18:00, as ISO 8601 allows.
    static let utcOffsets: ClosedRange<Int64> = -64_800...64_800

    /// Seconds east of UTC, 0 when not given; out of `utcOffsets` is 400 `invalid_request`
    /// (in a query or a body alike: a 422 of the learning routes is the grade or the choices).
    static func utcOffset(_ offset: Int64?) throws(APIFailure) -> Int {
        let offset = offset ?? 0
        guard utcOffsets.contains(offset) else {
            throw .invalidRequest(.badRequest, "utc_offset is seconds east of UTC, from -64800 to 64800.")
        }
        return Int(offset)
    }

    /// The learner's time: `at` (whole seconds, as the API reads it) on the day `utc_offset`
    /// puts it, both of the years 1–9999 that stores and the API keep; else 400.
    static func studyTime(at: Date, utcOffset: Int64?) throws(APIFailure) -> StudyTime {
        let offset = try Self.utcOffset(utcOffset)
        // `exactly`: nil for a fraction or an instant past any integer, before it is used.
        guard let seconds = Int64(exactly: at.timeIntervalSince1970), CardSchedule.instants.contains(seconds) else {
            throw .invalidRequest(.badRequest, "at must be a time of the years 0001 to 9999, in whole seconds.")
        }
        let time = StudyTime(now: at, secondsFromGMT: offset)
        guard (LearnerDay.earliest...LearnerDay.latest).contains(time.day) else {
            throw .invalidRequest(.badRequest, "at must be a time of the years 0001 to 9999 on the learner's calendar.")
        }
        return time
    }
}
