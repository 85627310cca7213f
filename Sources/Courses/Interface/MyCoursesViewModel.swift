import Observation
import Presentation
import SharedKernel

/// Tab 2: the learner's courses (from the enrollments model), then the ones they left after
/// completing them (history), the selected row, an unenroll waiting for `y`, and the outcome
/// of the last action.
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
        rows = OwnList(items: { model.rows }, confirmed: { model.state }, read: { await model.appear() })
    }

    /// The courses the learner holds a place in (the rows are these, then the history).
    var courses: [EnrolledCourse] { model.courses }

    /// Whether the selected row holds a place (it is not history).
    var isSelectedEnrolled: Bool {
        guard let selected = rows.selected else { return false }
        return model.enrollment(for: selected.id) != nil
    }

    /// `u`: asks `Unenroll from <title>? …` for the selected course, if the learner holds a
    /// place in it.
    func requestUnenroll() {
        guard let selected = rows.selected, isSelectedEnrolled else { return }
        pendingUnenroll = selected.course
    }

    /// The question for the course being left, with its lessons done as shown now.
    var unenrollQuestion: StatusMessage? {
        guard let course = pendingUnenroll else { return nil }
        let done = model.enrollment(for: course.id)?.lessonsDone.count ?? 0
        return .unenrollQuestion(title: course.title, lessonsDone: done, of: course.lessonCount)
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
