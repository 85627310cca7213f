import Observation
import SharedKernel
import TerminalUI

/// My courses: the load state, the selected row, and an unenroll waiting for `y`.
@Observable
@MainActor
final class MyCoursesViewModel {
    private(set) var state: ViewState<[EnrolledCourse]> = .idle
    private(set) var list = ListState()
    /// The course the learner asked to leave, until they answer `y` or `n`.
    private(set) var pendingUnenroll: EnrolledCourse?
    private(set) var status: StatusMessage?

    private let loadMyCourses: LoadMyCoursesUseCase
    private let unenroll: UnenrollUseCase
    @ObservationIgnored private var isRefreshing = false

    init(loadMyCourses: LoadMyCoursesUseCase, unenroll: UnenrollUseCase) {
        self.loadMyCourses = loadMyCourses
        self.unenroll = unenroll
    }

    var courses: [EnrolledCourse] { state.value ?? [] }

    var selected: EnrolledCourse? {
        courses.indices.contains(list.selectedIndex) ? courses[list.selectedIndex] : nil
    }

    /// Loads with the loading state shown; ignored while a load is in flight.
    func load() async {
        guard !state.isLoading else { return }
        let keep = selected?.id
        state = .loading
        await fetch(keeping: keep)
    }

    /// Loads again without showing the loading state, e.g. when the tab is shown again after
    /// an enrollment elsewhere.
    func refresh() async {
        guard !state.isLoading, !isRefreshing else { return }
        isRefreshing = true
        defer { isRefreshing = false }
        await fetch(keeping: nil)
    }

    /// Reads the list and selects a course again when it is still there: `keep`, or else
    /// whatever is selected when the result arrives, so keys pressed during a silent refresh
    /// are not undone by it.
    private func fetch(keeping keep: CourseID?) async {
        do {
            let courses = try await loadMyCourses.execute()
            let keep = keep ?? selected?.id
            state = courses.isEmpty ? .empty : .loaded(courses)
            let index = keep.flatMap { id in courses.firstIndex { $0.id == id } } ?? list.selectedIndex
            list.reconcile(selecting: index, itemCount: courses.count)
        } catch {
            state = .error(message: error.userMessage)
        }
    }

    func moveSelection(_ key: Key, pageSize: Int) -> Bool {
        list.handle(key, itemCount: courses.count, pageSize: pageSize)
    }

    func applyMouse(_ event: MouseEvent, listArea: Rect) -> Bool {
        ListView.handle(event, state: &list, area: listArea, itemCount: courses.count)
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
        await fetch(keeping: nil)
    }

    func clearStatus() {
        if status != nil { status = nil }
    }
}
