import SharedKernel
import TerminalUI

/// Favourites: the feature's one entry point. Give it the ports, get tab 3's screen and the
/// toggle action the catalog uses for `f`.
@MainActor
public struct FavouritesFeature {
    private let session: any SessionRepository
    private let favourites: any FavouritesRepository

    public init(session: any SessionRepository, favourites: any FavouritesRepository) {
        self.session = session
        self.favourites = favourites
    }

    /// Tab 3's root. `onCourseSelected` is called on `Enter`.
    public func makeFavouritesScreen(onCourseSelected: @escaping @MainActor (CourseID) -> Void) -> any Screen {
        let viewModel = FavouritesViewModel(
            load: LoadFavouritesUseCase(session: session, favourites: favourites),
            toggle: ToggleFavouriteUseCase(session: session, favourites: favourites)
        )
        return FavouritesScreen(viewModel: viewModel, onCourseSelected: onCourseSelected)
    }

    /// Marks or unmarks a course; the success value says whether it is a favourite now.
    public func toggle(courseID: CourseID) async -> Result<Bool, AppError> {
        do throws(AppError) {
            return .success(try await ToggleFavouriteUseCase(session: session, favourites: favourites).execute(courseID: courseID))
        } catch {
            return .failure(error)
        }
    }
}
