import SharedKernel
import TerminalUI

/// The catalog feature's one entry point: give it its ports, get its screens. Everything
/// that leaves the feature goes through the closures passed in.
@MainActor
public struct CatalogFeature {
    /// Enrolls the signed-in learner in a course; supplied by the shell, which routes it to
    /// the Courses feature.
    public typealias EnrollAction = @MainActor (CourseID) async -> Result<Enrollment, AppError>

    private let courses: any CourseRepository
    private let enrolled: EnrolledCourseIDs
    private let onEnrollRequested: EnrollAction

    public init(
        courses: any CourseRepository,
        enrollments: any EnrollmentRepository,
        session: any SessionRepository,
        onEnrollRequested: @escaping EnrollAction
    ) {
        self.courses = courses
        self.enrolled = EnrolledCourseIDs(session: session, enrollments: enrollments)
        self.onEnrollRequested = onEnrollRequested
    }

    /// The catalog tab's root list. `onCourseSelected` is called on `Enter`.
    public func makeListScreen(onCourseSelected: @escaping @MainActor (CourseID) -> Void) -> any Screen {
        let viewModel = CatalogListViewModel(loadCatalog: LoadCatalogUseCase(courses: courses, enrolled: enrolled))
        return CatalogListScreen(viewModel: viewModel, onCourseSelected: onCourseSelected)
    }

    /// A course's detail page. `onBack` is called on `Backspace` (Esc and q are the shell's).
    public func makeDetailScreen(courseID: CourseID, onBack: @escaping @MainActor () -> Void) -> any Screen {
        let viewModel = CourseDetailViewModel(
            courseID: courseID,
            loadDetail: LoadCourseDetailUseCase(courses: courses, enrolled: enrolled),
            enroll: onEnrollRequested
        )
        return CourseDetailScreen(viewModel: viewModel, onBack: onBack)
    }
}
