import Observation
import Presentation
import SharedKernel
import TerminalUI

/// Tab 2: the learner's courses (from the enrollments model), the selected row, an unenroll
/// waiting for `y`, and the outcome of the last action.
@Observable
@MainActor
final class MyCoursesViewModel {
    let model: LearnerEnrollments
    /// The rows, the selected one, and reading them again as the tab shows.
    let rows: OwnList<EnrolledCourse>
    /// The course the learner asked to leave, until they answer `y` or `n`.
    private(set) var pendingUnenroll: Course?

    init(model: LearnerEnrollments) {
        self.model = model
        rows = OwnList(items: { model.courses }, confirmed: { model.state }, read: { await model.appear() })
    }

    var courses: [EnrolledCourse] { model.courses }

    /// `u`: asks `Unenroll from <title>? (y/n)` for the selected course.
    func requestUnenroll() {
        guard let selected = rows.selected else { return }
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
        rows.tasks.run { await save.value }
    }
}
