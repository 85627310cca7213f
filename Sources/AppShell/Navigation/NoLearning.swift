import SharedKernel

/// The learning port of ports assembled without one (every store has one now; a shell made
/// for another feature's test may not): every call fails, so the reader and the review tab
/// say so.
struct NoLearning: LearningRepository {
    private var refusal: AppError { .storage(.reading, detail: "this store serves no lessons' text or reviews yet") }

    func lessonContent(courseID: CourseID, lesson: Int) async throws(AppError) -> LessonContent { throw refusal }
    func answers(userID: UserID, courseID: CourseID) async throws(AppError) -> [Answer] { throw refusal }
    func answer(_ chosen: Set<Int>, to question: QuestionRef, userID: UserID, on day: LearnerDay) async throws(AppError) -> Answer {
        throw refusal
    }
    func reviewDeck(userID: UserID, on day: LearnerDay, limit: Int) async throws(AppError) -> ReviewDeck { throw refusal }
    func review(_ question: QuestionRef, grade: ReviewGrade, userID: UserID, on day: LearnerDay) async throws(AppError) -> CardSchedule {
        throw refusal
    }
    func habit(userID: UserID, on day: LearnerDay, secondsFromGMT: Int) async throws(AppError) -> LearningHabit { throw refusal }
}
