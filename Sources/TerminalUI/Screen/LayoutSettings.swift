import Observation
import Presentation

/// How screens lay themselves out, as the config file says (`wide_layout_columns`); observed,
/// so an edit of the file while the app runs redraws with it.
@Observable
@MainActor
public final class LayoutSettings {
    /// From this many columns the catalog shows the selected course beside the list; `nil`: never.
    public var wideFrom: Int?

    public init(wideFrom: Int? = 140) {
        self.wideFrom = wideFrom
    }
}
