import SharedKernel
import TerminalUI

/// The catalog feature's one entry point: give it the course port, get its screens.
/// Everything that leaves the feature goes through the closures passed in.
@MainActor
public struct CatalogFeature {
    private let courses: any CourseRepository

    public init(courses: any CourseRepository) {
        self.courses = courses
    }

    /// The catalog tab's root list. `onCourseSelected` is called on `Enter`.
    public func makeListScreen(onCourseSelected: @escaping @MainActor (CourseID) -> Void) -> any Screen {
        let viewModel = CatalogListViewModel(loadCatalog: LoadCatalogUseCase(courses: courses))
        return CatalogListScreen(viewModel: viewModel, onCourseSelected: onCourseSelected)
    }

    /// A course's detail page. `onBack` is called on `Backspace` (Esc and q are the shell's).
    public func makeDetailScreen(courseID: CourseID, onBack: @escaping @MainActor () -> Void) -> any Screen {
        let viewModel = CourseDetailViewModel(courseID: courseID, loadDetail: LoadCourseDetailUseCase(courses: courses))
        return CourseDetailScreen(viewModel: viewModel, onBack: onBack)
    }
}
