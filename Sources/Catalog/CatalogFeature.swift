import SharedKernel
import TerminalUI

/// The catalog feature's one entry point: give it its ports, get its screens. Everything
/// that leaves the feature goes through the closures passed in.
@MainActor
public struct CatalogFeature {
    /// Enrolls the signed-in learner in a course; supplied by the shell, which routes it to
    /// the Courses feature.
    public typealias EnrollAction = @MainActor (CourseID) async -> Result<Enrollment, AppError>
    /// Marks or unmarks a favourite (the success value: favourite afterwards); supplied by the
    /// shell, which routes it to the Favourites feature.
    public typealias ToggleFavouriteAction = @MainActor (CourseID) async -> Result<Bool, AppError>

    private let courses: any CourseRepository
    private let marks: CourseMarks
    private let onEnrollRequested: EnrollAction
    private let onToggleFavourite: ToggleFavouriteAction

    public init(
        courses: any CourseRepository,
        enrollments: any EnrollmentRepository,
        favourites: any FavouritesRepository,
        session: any SessionRepository,
        onEnrollRequested: @escaping EnrollAction,
        onToggleFavourite: @escaping ToggleFavouriteAction
    ) {
        self.courses = courses
        self.marks = CourseMarks(session: session, enrollments: enrollments, favourites: favourites)
        self.onEnrollRequested = onEnrollRequested
        self.onToggleFavourite = onToggleFavourite
    }

    /// The catalog tab's root list. `onCourseSelected` is called on `Enter`.
    public func makeListScreen(onCourseSelected: @escaping @MainActor (CourseID) -> Void) -> any Screen {
        let viewModel = CatalogListViewModel(
            loadCatalog: LoadCatalogUseCase(courses: courses, marks: marks),
            toggleFavourite: onToggleFavourite
        )
        return CatalogListScreen(viewModel: viewModel, onCourseSelected: onCourseSelected)
    }

    /// A course's detail page. `onBack` is called on `Backspace` (Esc and q are the shell's).
    public func makeDetailScreen(courseID: CourseID, onBack: @escaping @MainActor () -> Void) -> any Screen {
        let viewModel = CourseDetailViewModel(
            courseID: courseID,
            loadDetail: LoadCourseDetailUseCase(courses: courses, marks: marks),
            enroll: onEnrollRequested,
            toggleFavourite: onToggleFavourite
        )
        return CourseDetailScreen(viewModel: viewModel, onBack: onBack)
    }
}
