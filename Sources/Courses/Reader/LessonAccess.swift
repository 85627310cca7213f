import SharedKernel

/// What the reader reads lessons through: the learning port (a lesson's text, questions and
/// answers) and the learner's time, which the app's clock decides.
public struct LessonAccess: Sendable {
    public var repository: any LearningRepository
    public var time: @MainActor @Sendable () -> StudyTime

    public init(repository: any LearningRepository, time: @escaping @MainActor @Sendable () -> StudyTime) {
        self.repository = repository
        self.time = time
    }
}
