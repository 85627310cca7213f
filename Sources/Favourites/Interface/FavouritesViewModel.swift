import Observation
import SharedKernel
import TerminalUI

/// Tab 3: the favourite courses (from the favourites model), the selected row and the
/// outcome of the last removal.
@Observable
@MainActor
final class FavouritesViewModel {
    let model: LearnerFavourites
    private(set) var selection = KeyedSelection<CourseID>()
    /// True from the moment the tab shows until the list is read again: keys wait for it.
    private(set) var isReading = false
    @ObservationIgnored let tasks = OwnedTasks()

    init(model: LearnerFavourites) {
        self.model = model
    }

    var courses: [Course] { model.courses }
    var ids: [CourseID] { courses.map(\.id) }
    var list: ListState { selection.listState(over: ids) }

    var selected: Course? {
        let courses = self.courses
        guard let id = selection.selected(in: courses.map(\.id)) else { return nil }
        return courses.first { $0.id == id }
    }

    func moveSelection(_ key: Key, pageSize: Int) -> Bool {
        selection.handle(key, ids: ids, pageSize: pageSize)
    }

    func applyMouse(_ event: MouseEvent, listArea: Rect) -> Bool {
        selection.handle(event, ids: ids, area: listArea)
    }

    /// `f`: the course leaves the list at once; the store's answer is the footer's message.
    func remove(_ course: Course) {
        let save = model.toggle(course)
        tasks.run { await save.value }
    }

    /// The tab showed: the list is read (the first time) or read again, and the screen is
    /// busy at once, before the read starts, so the keys typed next wait for it.
    func readAgain() {
        guard !isReading else { return }
        isReading = true
        let model = self.model
        tasks.run { [weak self] in
            await model.appear()
            self?.isReading = false
        }
    }

}
