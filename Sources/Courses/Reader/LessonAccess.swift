import SharedKernel

/// What the reader reads lessons through: the learning port (a lesson's text, questions and
/// answers) and the learner's day, which the app's clock decides.
public struct LessonAccess: Sendable {
    public var repository: any LearningRepository
    public var today: @MainActor @Sendable () -> LearnerDay

    public init(repository: any LearningRepository, today: @escaping @MainActor @Sendable () -> LearnerDay) {
        self.repository = repository
        self.today = today
    }
}
