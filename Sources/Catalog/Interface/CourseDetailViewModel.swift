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
    /// The outcome of the last action, for the footer.
    private(set) var status: StatusMessage?
    private(set) var isEnrolling = false

    private let loadDetail: LoadCourseDetailUseCase
    private let enrollAction: CatalogFeature.EnrollAction
    private let toggleFavouriteAction: CatalogFeature.ToggleFavouriteAction

    init(
        courseID: CourseID,
        loadDetail: LoadCourseDetailUseCase,
        enroll: @escaping CatalogFeature.EnrollAction,
        toggleFavourite: @escaping CatalogFeature.ToggleFavouriteAction = { _ in .failure(.notSignedIn) }
    ) {
        self.courseID = courseID
        self.loadDetail = loadDetail
        self.enrollAction = enroll
        self.toggleFavouriteAction = toggleFavourite
    }

    /// `f`: marks or unmarks this course as a favourite and shows the new state at once.
    func toggleFavourite() async {
        guard case .loaded(let detail) = state else { return }
        let result = await toggleFavouriteAction(courseID)
        if let updated = try? await loadDetail.execute(id: courseID) { state = .loaded(updated) }
        status = FavouriteStatus.message(for: result, title: detail.course.title)
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

    /// Enrolls through the Courses feature and shows the outcome; on success the page is
    /// read again so seats left and the ✓ change at once. A second `e` while one is in
    /// flight is ignored.
    func enroll() async {
        guard case .loaded(let detail) = state, !isEnrolling else { return }
        isEnrolling = true
        defer { isEnrolling = false }
        status = nil
        switch await enrollAction(courseID) {
        case .success:
            if let updated = try? await loadDetail.execute(id: courseID) { state = .loaded(updated) }
            status = StatusMessage("Enrolled in \(detail.course.title)", kind: .success)
        case .failure(let error):
            status = StatusMessage(error.userMessage, kind: .error)
        }
    }

    func clearStatus() {
        if status != nil { status = nil }
    }

    /// Scrolls the text by `delta` lines within `0...maxOffset`.
    func scroll(by delta: Int, maxOffset: Int) {
        scrollOffset = min(max(0, scrollOffset + delta), max(0, maxOffset))
    }

    func scroll(to offset: Int, maxOffset: Int) {
        scrollOffset = min(max(0, offset), max(0, maxOffset))
    }
}
