import Observation
import Presentation
import SharedKernel

/// What screens read of the config file while they run: how they lay themselves out
/// (`wide_layout_columns`) and how cards are scheduled (`[review]`); observed, so an edit of
/// the file while the app runs applies at once.
@Observable
@MainActor
public final class LayoutSettings {
    /// From this many columns the catalog shows the selected course beside the list; `nil`: never.
    public var wideFrom: Int?
    /// The learner's retention and steps: every answer, grade and deck read uses them.
    public var review: ReviewSettings

    public init(wideFrom: Int? = 140, review: ReviewSettings = .default) {
        self.wideFrom = wideFrom
        self.review = review
    }
}
