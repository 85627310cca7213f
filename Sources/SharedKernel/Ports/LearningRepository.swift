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
    /// Answers a question of a course the learner holds a place in (`LearningRules.answer`):
    /// the first answer is kept, and puts the question in the review deck, due by SM-2 from
    /// `day`; answering again returns the first answer and changes nothing. `.notEnrolled`;
    /// `.noSuchLesson` for a lesson or question that is not there; `.invalidAnswer` for
    /// `chosen` that is not 1 to 6 of the question's choices.
    func answer(_ chosen: Set<Int>, to question: QuestionRef, userID: UserID, on day: LearnerDay) async throws(AppError) -> Answer
    /// The cards due on `day` (earliest due first, then in course and lesson order): the
    /// first `limit`, and how many in all.
    func reviewDeck(userID: UserID, on day: LearnerDay, limit: Int) async throws(AppError) -> ReviewDeck
    /// Reviews a card due on `day` (`LearningRules.review`): its new schedule. A card not due
    /// (reviewed meanwhile in another terminal) keeps its schedule, which is returned.
    /// `.noSuchLesson` for a question not in the deck.
    func review(_ question: QuestionRef, grade: ReviewGrade, userID: UserID, on day: LearnerDay) async throws(AppError) -> CardSchedule
    /// The streak up to `day` and the cards due on it. A lesson's time of completion falls on
    /// the day `secondsFromGMT` gives it.
    func habit(userID: UserID, on day: LearnerDay, secondsFromGMT: Int) async throws(AppError) -> LearningHabit
}

/// The rules of answers and reviews, the same over every store, which reads the facts in its
/// write transaction and writes what these decide.
public enum LearningRules {
    /// Days of learning a streak looks back over at most.
    public static let streakWindow = 400

    /// The answer to keep: the one already stored, else `chosen` checked against the
    /// question with the card it starts. `.notEnrolled` without a place; `.noSuchLesson`
    /// when the question is not there; `.invalidAnswer` unless `chosen` is 1 to 6 of the
    /// question's choices, also when an answer is kept already (a bad request is told so,
    /// whatever was answered before).
    public static func answer(
        _ chosen: Set<Int>, to ref: QuestionRef, question: Question?, holdsPlace: Bool, existing: Answer?, day: LearnerDay
    ) throws(AppError) -> (answer: Answer, newCard: CardSchedule?) {
        guard holdsPlace else { throw .notEnrolled(ref.courseID) }
        guard let question else { throw .noSuchLesson(ref.courseID, ref.lesson) }
        guard (1...ContentLimits.choices.upperBound).contains(chosen.count), chosen.allSatisfy(question.choices.indices.contains) else {
            throw .invalidAnswer(ref)
        }
        if let existing { return (existing, nil) }
        let answer = Answer(ref: ref, chosen: chosen, to: question)
        let card = CardSchedule.new(on: day).reviewed(.firstAnswer(isRight: answer.isRight), on: day)
        return (answer, card)
    }

    /// The schedule after reviewing `card` on `day`; `nil` when it is not due (nothing to write).
    public static func review(_ card: CardSchedule?, grade: ReviewGrade, ref: QuestionRef, day: LearnerDay) throws(AppError)
        -> CardSchedule?
    {
        guard let card else { throw .noSuchLesson(ref.courseID, ref.lesson) }
        guard card.isDue(on: day) else { return nil }
        return card.reviewed(grade, on: day)
    }
}
