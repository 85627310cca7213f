import Presentation
import SharedKernel
import TerminalUI

/// The review deck of one signed-in learner: tab 5. Give it the learner, the learning port
/// and the learner's time; get its screen.
@MainActor
public final class ReviewFeature {
    private let learner: UserID
    private let learning: any LearningRepository
    private let time: @MainActor () -> StudyTime
    private let settings: @MainActor () -> ReviewSettings
    private let clock: any Clock<Duration>
    private let report: @MainActor (StatusMessage) -> Void
    private let changes = Notices<Void>()

    public init(
        learner: UserID, learning: any LearningRepository, time: @escaping @MainActor () -> StudyTime,
        settings: @escaping @MainActor () -> ReviewSettings = { .default }, report: @escaping @MainActor (StatusMessage) -> Void,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.learner = learner
        self.learning = learning
        self.time = time
        self.settings = settings
        self.report = report
        self.clock = clock
    }

    /// Tab 5's root.
    public func makeReviewScreen() -> any Screen {
        ReviewScreen(
            viewModel: ReviewViewModel(
                learner: learner, learning: learning, time: time, settings: settings, report: report, changes: changes, clock: clock))
    }

    /// The learner answered or reviewed (here or elsewhere): the deck is read again where it
    /// shows.
    public func learningChanged() {
        changes.post(())
    }

    /// Every key of tab 5, for `tui --help`.
    public nonisolated static var keys: [KeyDeclaration] { ReviewScreen.declaredKeys }
}
