import SharedKernel

/// What the reader reads lessons through: the learning port (a lesson's text, questions and
/// answers) and the learner's time, which the app's clock decides.
public struct LessonAccess: Sendable {
    public var repository: any LearningRepository
    public var time: @MainActor @Sendable () -> StudyTime
    /// The learner's scheduling settings as the config file says them now.
    public var settings: @MainActor @Sendable () -> ReviewSettings

    public init(
        repository: any LearningRepository, time: @escaping @MainActor @Sendable () -> StudyTime,
        settings: @escaping @MainActor @Sendable () -> ReviewSettings = { .default }
    ) {
        self.repository = repository
        self.time = time
        self.settings = settings
    }
}
