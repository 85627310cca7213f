import Observation
import SharedKernel
import TerminalUI

/// My courses: the load state, the selected row, and an unenroll waiting for `y`.
@Observable
@MainActor
final class MyCoursesViewModel {
    let rows: LoadableList<EnrolledCourse>
    /// The course the learner asked to leave, until they answer `y` or `n`.
    private(set) var pendingUnenroll: EnrolledCourse?
    private(set) var status: StatusMessage?

    private let unenroll: UnenrollUseCase

    init(loadMyCourses: LoadMyCoursesUseCase, unenroll: UnenrollUseCase) {
        self.unenroll = unenroll
        rows = LoadableList {
            do throws(AppError) {
                return .success(try await loadMyCourses.execute())
            } catch {
                return .failure(ListLoadError(message: error.userMessage))
            }
        }
    }

    var state: ViewState<[EnrolledCourse]> { rows.state }
    var list: ListState { rows.selection }
    var courses: [EnrolledCourse] { rows.items }
    var selected: EnrolledCourse? { rows.selected }

    func load() async { await rows.load() }

    /// Loads again without the loading state, e.g. when the tab shows again after an
    /// enrollment elsewhere.
    func refresh() async { await rows.refresh() }

    func moveSelection(_ key: Key, pageSize: Int) -> Bool {
        rows.handle(key, pageSize: pageSize)
    }

    func applyMouse(_ event: MouseEvent, listArea: Rect) -> Bool {
        rows.handle(event, area: listArea)
    }

    /// Asks `Unenroll from <title>? (y/n)` for the selected course.
    func requestUnenroll() {
        guard let selected else { return }
        status = nil
        pendingUnenroll = selected
    }

    func cancelUnenroll() {
        pendingUnenroll = nil
    }

    /// The learner said `y`: leave the course, then show the list as it now is.
    func confirmUnenroll() async {
        guard let course = pendingUnenroll else { return }
        pendingUnenroll = nil
        do {
            try await unenroll.execute(courseID: course.id)
            status = StatusMessage("Unenrolled from \(course.course.title)", kind: .success)
        } catch {
            status = StatusMessage(error.userMessage, kind: .error)
        }
        await rows.refresh()
    }

    func clearStatus() {
        if status != nil { status = nil }
    }
}
