import Observation
import SharedKernel
import TerminalUI

/// Tab 3: the favourite courses and the outcome of the last removal.
@Observable
@MainActor
final class FavouritesViewModel {
    let rows: LoadableList<Course>
    private(set) var status: StatusMessage?
    private let toggle: ToggleFavouriteUseCase

    init(load: LoadFavouritesUseCase, toggle: ToggleFavouriteUseCase) {
        self.toggle = toggle
        rows = LoadableList {
            do throws(AppError) {
                return .success(try await load.execute())
            } catch {
                return .failure(ListLoadError(message: error.userMessage))
            }
        }
    }

    /// `f` on tab 3: `course` (selected when the key was pressed) stops being a favourite
    /// and leaves the list.
    func remove(_ course: Course) async {
        let message: StatusMessage
        do {
            _ = try await toggle.execute(courseID: course.id)
            message = StatusMessage("Removed \(course.title) from favourites", kind: .success)
        } catch {
            message = StatusMessage(error.userMessage, kind: .error)
        }
        // Refresh first, so the message and the shorter list appear in the same frame.
        await rows.refresh()
        status = message
    }

    func clearStatus() {
        if status != nil { status = nil }
    }
}
