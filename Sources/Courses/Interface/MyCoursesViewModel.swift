import Observation
import SharedKernel
import TerminalUI

/// Tab 2: the learner's courses (from the enrollments model), the selected row, an unenroll
/// waiting for `y`, and the outcome of the last action.
@Observable
@MainActor
final class MyCoursesViewModel {
    let model: LearnerEnrollments
    private(set) var selection = KeyedSelection<CourseID>()
    /// The course the learner asked to leave, until they answer `y` or `n`.
    private(set) var pendingUnenroll: Course?
    /// True from the moment the tab shows until the list is read again: keys wait for it.
    private(set) var isReading = false
    @ObservationIgnored let tasks = OwnedTasks()

    init(model: LearnerEnrollments) {
        self.model = model
    }

    var courses: [EnrolledCourse] { model.courses }
    var ids: [CourseID] { courses.map(\.id) }
    var list: ListState { selection.listState(over: ids) }

    var selected: EnrolledCourse? {
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

    /// `u`: asks `Unenroll from <title>? (y/n)` for the selected course.
    func requestUnenroll() {
        guard let selected else { return }
        pendingUnenroll = selected.course
    }

    func cancelUnenroll() {
        pendingUnenroll = nil
    }

    /// `y`: the course leaves the list at once; the store's answer is reported.
    func confirmUnenroll() {
        guard let course = pendingUnenroll else { return }
        pendingUnenroll = nil
        let save = model.unenroll(course)
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
