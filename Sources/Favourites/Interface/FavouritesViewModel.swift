import Observation
import Presentation
import SharedKernel

/// Tab 3: the favourite courses (from the favourites model), the selected row and the
/// outcome of the last removal.
@Observable
@MainActor
final class FavouritesViewModel {
    let model: LearnerFavourites
    /// The rows, the selected one, and reading them again as the tab shows.
    let rows: OwnList<Course>

    init(model: LearnerFavourites) {
        self.model = model
        rows = OwnList(items: { model.courses }, confirmed: { model.state }, read: { await model.appear() })
    }

    var courses: KeptList<Course> { model.courses }

    /// `f`: the course leaves the list at once; the store's answer is the footer's message.
    func remove(_ course: Course) {
        let save = model.toggle(course)
        rows.tasks.run { await save.value }
    }
}
