import Presentation
import SharedKernel
import TerminalUI

/// The favourites of one signed-in learner: the feature's one entry point. Give it the
/// learner and the port, get tab 3's screen; the shell routes `f` from the catalog and the
/// ★ marks through the methods below.
@MainActor
public final class FavouritesFeature {
    let model: LearnerFavourites

    /// `report` is told the outcome of every save (the shell shows it in the footer).
    public init(learner: UserID, favourites: any FavouritesRepository, report: @escaping @MainActor (StatusMessage) -> Void) {
        model = LearnerFavourites(learner: learner, favourites: favourites, report: report)
    }

    /// Tab 3's root. `onCourseSelected` is called on `Enter`.
    public func makeFavouritesScreen(onCourseSelected: @escaping @MainActor (CourseID) -> Void) -> any Screen {
        FavouritesScreen(viewModel: FavouritesViewModel(model: model), onCourseSelected: onCourseSelected)
    }

    /// Every key of tab 3, for `tui --help`.
    public nonisolated static var keys: [KeyDeclaration] { FavouritesScreen.declaredKeys }

    // MARK: - For the other features

    /// Loads the learner's favourites once (later calls return at once).
    public func prepare() async {
        if case .idle = model.state { await model.load() }
    }

    /// Whether the whole list was never asked for: `prepare` would load it.
    public var isUnread: Bool {
        if case .idle = model.state { true } else { false }
    }

    /// Reads which of `ids` (a page's courses) are favourites while the whole list is not
    /// loaded yet; see `LearnerFavourites.glimpse`.
    public func glimpse(_ ids: [CourseID]) async {
        await model.glimpse(ids)
    }

    /// Reads the learner's favourites again (the store may have changed under them: a session the
    /// server ended and the learner began again); see `LearnerFavourites.readAgain`.
    public func readAgain() async {
        await model.readAgain()
    }

    /// The store changed whether the course is a favourite elsewhere: read afresh.
    public func storeChanged(_ id: CourseID) async {
        await model.storeChanged(id)
    }

    public func isFavourite(_ id: CourseID) -> Bool { model.isFavourite(id) }
    public func isSaving(_ id: CourseID) -> Bool { model.isSaving(id) }
    /// How many favourites the learner keeps; `nil` when they could not be read.
    public var count: Int? { model.state.value == nil ? nil : model.courses.count }

    /// `f`: see `LearnerFavourites.toggle`.
    @discardableResult
    public func toggle(_ course: Course) -> Task<Void, Never> {
        model.toggle(course)
    }
}
