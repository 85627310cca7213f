import Observation
import SharedKernel
import TerminalUI

/// One course's detail: its load state and how far the text is scrolled.
@Observable
@MainActor
final class CourseDetailViewModel {
    let courseID: CourseID
    private(set) var state: ViewState<CourseDetail> = .idle
    private(set) var scrollOffset = 0

    private let loadDetail: LoadCourseDetailUseCase

    init(courseID: CourseID, loadDetail: LoadCourseDetailUseCase) {
        self.courseID = courseID
        self.loadDetail = loadDetail
    }

    /// Loads the course; ignored while a load is in flight.
    func load() async {
        guard !state.isLoading else { return }
        state = .loading
        do {
            state = .loaded(try await loadDetail.execute(id: courseID))
        } catch {
            state = .error(message: error.userMessage)
        }
    }

    /// Scrolls the text by `delta` lines within `0...maxOffset`.
    func scroll(by delta: Int, maxOffset: Int) {
        scrollOffset = min(max(0, scrollOffset + delta), max(0, maxOffset))
    }

    func scroll(to offset: Int, maxOffset: Int) {
        scrollOffset = min(max(0, offset), max(0, maxOffset))
    }
}
