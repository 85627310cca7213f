import Presentation
import SharedKernel
import TerminalUI

/// The review deck of one signed-in learner: tab 5. Give it the learner, the learning port
/// and the learner's day; get its screen.
@MainActor
public final class ReviewFeature {
    private let learner: UserID
    private let learning: any LearningRepository
    private let today: @MainActor () -> LearnerDay
    private let report: @MainActor (StatusMessage) -> Void
    private let changes = Notices<Void>()

    public init(
        learner: UserID, learning: any LearningRepository, today: @escaping @MainActor () -> LearnerDay,
        report: @escaping @MainActor (StatusMessage) -> Void
    ) {
        self.learner = learner
        self.learning = learning
        self.today = today
        self.report = report
    }

    /// Tab 5's root.
    public func makeReviewScreen() -> any Screen {
        ReviewScreen(
            viewModel: ReviewViewModel(
                learner: learner, learning: learning, today: today, report: report, changes: changes))
    }

    /// The learner answered or reviewed (here or elsewhere): the deck is read again where it
    /// shows.
    public func learningChanged() {
        changes.post(())
    }

    /// Every key of tab 5, for `tui --help`.
    public nonisolated static var keys: [KeyDeclaration] { ReviewScreen.declaredKeys }
}
