import SharedKernel
import TerminalUI

/// My courses and enrollment: the feature's one entry point. Give it the ports, get the
/// My courses screen and the enroll action; everything that leaves goes through closures.
@MainActor
public struct CoursesFeature {
    private let session: any SessionRepository
    private let courses: any CourseRepository
    private let enrollments: any EnrollmentRepository

    public init(session: any SessionRepository, courses: any CourseRepository, enrollments: any EnrollmentRepository) {
        self.session = session
        self.courses = courses
        self.enrollments = enrollments
    }

    /// Tab 2's root. `onCourseSelected` is called on `Enter`.
    public func makeMyCoursesScreen(onCourseSelected: @escaping @MainActor (CourseID) -> Void) -> any Screen {
        let viewModel = MyCoursesViewModel(
            loadMyCourses: LoadMyCoursesUseCase(session: session, enrollments: enrollments),
            unenroll: UnenrollUseCase(session: session, enrollments: enrollments)
        )
        return MyCoursesScreen(viewModel: viewModel, onCourseSelected: onCourseSelected)
    }

    /// Enrolls the signed-in learner, applying every rule; a refusal writes nothing.
    public func enroll(courseID: CourseID) async -> Result<Enrollment, AppError> {
        do {
            return .success(try await EnrollInCourseUseCase(session: session, courses: courses, enrollments: enrollments).execute(courseID: courseID))
        } catch {
            return .failure(error)
        }
    }
}
