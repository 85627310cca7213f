import Foundation

/// What a learner reads and practises: lessons' bodies and questions, their answers, and the
/// review deck those answers make. Days are the learner's (`LearnerDay`), given by the app.
public protocol LearningRepository: Sendable {
    /// One lesson's body and questions. `.courseNotFound`; `.noSuchLesson` past the syllabus.
    /// A store may serve the questions `unanswered` (a server does: the right choices come with
    /// the learner's answer, SPEC), so a reader takes them from `Answer`.
    func lessonContent(courseID: CourseID, lesson: Int) async throws(AppError) -> LessonContent
    /// The learner's answers in one course, one per question answered, in lesson order, each
    /// with its question's right choices and explanation as stored now.
    func answers(userID: UserID, courseID: CourseID) async throws(AppError) -> [Answer]
    /// The learner's review cards in one course, one per question answered, in lesson and
    /// question order, due or not.
    func cards(userID: UserID, courseID: CourseID) async throws(AppError) -> [CourseCard]
    /// Answers a question of a course the learner holds a place in (`LearningRules.answer`):
    /// the first answer is kept, and puts the question in the review deck, scheduled by FSRS
    /// from `time`; answering again returns the first answer and changes nothing.
    /// `.notEnrolled`; `.noSuchLesson` for a lesson or question that is not there;
    /// `.invalidAnswer` for `chosen` that is not 1 to 6 of the question's choices.
    func answer(_ chosen: Set<Int>, to question: QuestionRef, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> Answer
    /// The cards due at `time` (`CardSchedule.isDue`; earliest due first, then in course and
    /// lesson order): the first `limit`, the counts of each part, and when the next card in
    /// its steps comes back today (`ReviewDeck(cards:counting:at:)` says what is counted).
    /// Each card says when each grade would bring it back, by `settings`.
    func reviewDeck(userID: UserID, at time: StudyTime, limit: Int, settings: ReviewSettings) async throws(AppError) -> ReviewDeck
    /// Reviews a card due at `time` (`LearningRules.review`): its new schedule, with the grade
    /// in the learner's review log. `.notDue` for a card not due (reviewed meanwhile, perhaps
    /// in another terminal: nothing is written); `.noSuchLesson` for a question not in the deck.
    func review(_ question: QuestionRef, grade: ReviewGrade, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> CardSchedule
    /// Takes back the grade given to `question` at `reviewedAt` (`LearningRules.undo`): the card
    /// is as it was before it, and the grade leaves the log. `.nothingToUndo` unless that grade
    /// is the card's last (graded again, or undone, elsewhere; or never given).
    func undoReview(_ question: QuestionRef, reviewedAt: Date, userID: UserID) async throws(AppError) -> CardSchedule
    /// The learner's memory at `time` (`MemoryPicture(schedules:log:at:)` says what is counted).
    func memory(userID: UserID, at time: StudyTime) async throws(AppError) -> MemoryPicture
    /// The streak up to `day` and the cards due on it, at any time of it. A lesson's time of
    /// completion falls on the day `secondsFromGMT` gives it.
    func habit(userID: UserID, on day: LearnerDay, secondsFromGMT: Int) async throws(AppError) -> LearningHabit
}

extension LearningRepository {
    /// `answer` by the default settings.
    public func answer(_ chosen: Set<Int>, to question: QuestionRef, userID: UserID, at time: StudyTime) async throws(AppError) -> Answer {
        try await answer(chosen, to: question, userID: userID, at: time, settings: .default)
    }

    /// `reviewDeck` by the default settings.
    public func reviewDeck(userID: UserID, at time: StudyTime, limit: Int) async throws(AppError) -> ReviewDeck {
        try await reviewDeck(userID: userID, at: time, limit: limit, settings: .default)
    }

    /// `review` by the default settings.
    public func review(_ question: QuestionRef, grade: ReviewGrade, userID: UserID, at time: StudyTime) async throws(AppError)
        -> CardSchedule
    {
        try await review(question, grade: grade, userID: userID, at: time, settings: .default)
    }
}

/// The rules of answers and reviews, the same over every store, which reads the facts in its
/// write transaction and writes what these decide.
public enum LearningRules {
    /// Days of learning a streak looks back over at most.
    public static let streakWindow = 400

    /// The fuzz of a card's review: the same numbers in every store for the same learner, card
    /// and instant, so a store's schedule can be checked against another's.
    public static func fuzz(_ ref: QuestionRef, userID: UserID, at time: StudyTime) -> SeededRandomGenerator {
        SeededRandomGenerator(
            seed: SeededRandomGenerator.seed(
                "\(userID.rawValue)\u{1F}\(ref.courseID.rawValue)\u{1F}\(ref.lesson)\u{1F}\(ref.question)\u{1F}\(Int64(time.now.timeIntervalSince1970))"
            ))
    }

    /// The answer to keep: the one already stored, else `chosen` checked against the
    /// question with the card it starts (its first review: good when right, again when not).
    /// `.notEnrolled` without a place; `.noSuchLesson` when the question is not there;
    /// `.invalidAnswer` unless `chosen` is 1 to 6 of the question's choices, also when an
    /// answer is kept already (a bad request is told so, whatever was answered before).
    public static func answer(
        _ chosen: Set<Int>, to ref: QuestionRef, question: Question?, holdsPlace: Bool, existing: Answer?, userID: UserID,
        time: StudyTime, settings: ReviewSettings = .default
    ) throws(AppError) -> (answer: Answer, newCard: CardSchedule?) {
        guard holdsPlace else { throw .notEnrolled(ref.courseID) }
        guard let question else { throw .noSuchLesson(ref.courseID, ref.lesson) }
        guard (1...ContentLimits.choices.upperBound).contains(chosen.count), chosen.allSatisfy(question.choices.indices.contains) else {
            throw .invalidAnswer(ref)
        }
        if let existing { return (existing, nil) }
        let answer = Answer(ref: ref, chosen: chosen, to: question)
        return (answer, firstCard(of: answer, userID: userID, time: time, settings: settings))
    }

    /// The card an answer given at `time` starts: its first review, good when right, again
    /// when not (a replica makes the one the server made, from the server's answer).
    public static func firstCard(of answer: Answer, userID: UserID, time: StudyTime, settings: ReviewSettings = .default)
        -> CardSchedule
    {
        var fuzz = fuzz(answer.ref, userID: userID, at: time)
        let card = settings.scheduler.review(
            FSRSCard(due: time.now), grade: .firstAnswer(isRight: answer.isRight), at: time.now, using: &fuzz
        ).card
        return CardSchedule(card: keptInRange(card), reviews: 0)
    }

    /// Never due past the last instant a store and the API keep (9999-12-31T23:59:59Z).
    static func keptInRange(_ card: FSRSCard) -> FSRSCard {
        var card = card
        card.due = min(card.due, Date(timeIntervalSince1970: Double(CardSchedule.instants.upperBound)))
        return card
    }

    /// The schedule after reviewing `schedule` at `time`, with the log entry to keep.
    /// `.noSuchLesson` without a card; `.notDue` when it is not due (nothing to write).
    public static func review(
        _ schedule: CardSchedule?, grade: ReviewGrade, ref: QuestionRef, userID: UserID, time: StudyTime,
        settings: ReviewSettings = .default
    ) throws(AppError) -> (schedule: CardSchedule, log: ReviewLogEntry) {
        guard let schedule else { throw .noSuchLesson(ref.courseID, ref.lesson) }
        guard schedule.isDue(at: time) else { throw .notDue(ref) }
        var fuzz = fuzz(ref, userID: userID, at: time)
        let card = settings.scheduler.review(schedule.card, grade: grade, at: time.now, using: &fuzz).card
        return (
            CardSchedule(card: keptInRange(card), reviews: schedule.reviews + 1),
            ReviewLogEntry(ref: ref, grade: grade, reviewedAt: time.now, before: schedule)
        )
    }

    /// The card an undo restores: the one before the grade at `reviewedAt`, when that grade is
    /// `latest`, the card's last log entry (whole seconds, as every store keeps them).
    public static func undo(latest: ReviewLogEntry?, ref: QuestionRef, reviewedAt: Date) throws(AppError) -> CardSchedule {
        guard let latest, latest.ref == ref,
            Int64(latest.reviewedAt.timeIntervalSince1970.rounded(.down)) == Int64(reviewedAt.timeIntervalSince1970.rounded(.down))
        else { throw .nothingToUndo(ref) }
        return latest.before
    }
}
