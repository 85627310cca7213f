@testable import Catalog
import SharedKernel
import Testing
import TestSupport
import TerminalUI

@Suite("Enrolling from the course detail")
@MainActor
struct CourseDetailEnrollTests {
    @Test("e enrolls, the footer says so, and the page shows ✓ with the seat taken")
    func enrollSuccess() async throws {
        let course = Course.fixture(id: "swift-101", title: "Swift 101", capacity: 40, enrolledCount: 12)
        let repository = CourseRepositorySpy.success([course])
        let enrollments = EnrollmentRepositorySpy(courses: [course])
        var requested: [CourseID] = []
        let (screen, viewModel) = makeSUT(course: course, repository: repository, enrollments: enrollments) { id in
            requested.append(id)
            await repository.setResult(.success([Course.fixture(id: "swift-101", title: "Swift 101", capacity: 40, enrolledCount: 13)]))
            do throws(AppError) {
                return .success(try await enrollments.enroll(userID: User.demo.id, courseID: id))
            } catch {
                return .failure(error)
            }
        }
        await viewModel.load()
        #expect(screen.keyHints.contains(KeyHint("e", "enroll")))

        await viewModel.enroll()

        #expect(requested == ["swift-101"])
        #expect(screen.statusMessage == StatusMessage("Enrolled in Swift 101", kind: .success))
        let text = draw(screen).text
        #expect(text.contains("Seats left    27 of 40"))
        #expect(text.contains("Status        ✓ Enrolled"))
        #expect(!screen.keyHints.contains(KeyHint("e", "enroll")))
    }

    @Test("a refusal shows SPEC's sentence and leaves the page as it was")
    func enrollRefused() async {
        let course = Course.fixture(title: "Swift 101", capacity: 10, enrolledCount: 10)
        let (screen, viewModel) = makeSUT(course: course) { _ in .failure(.refused(.courseFull(title: "Swift 101"))) }
        await viewModel.load()
        let before = draw(screen).text

        await viewModel.enroll()

        #expect(screen.statusMessage == StatusMessage("Swift 101 is full", kind: .error))
        #expect(draw(screen).text == before)
    }

    @Test("the next key clears the footer message")
    func statusClears() async {
        let (screen, viewModel) = makeSUT(course: .fixture()) { _ in .failure(.connectivity) }
        await viewModel.load()
        await viewModel.enroll()

        _ = screen.handle(.key(.down))

        #expect(screen.statusMessage == nil)
    }

    // MARK: - Helpers

    private func makeSUT(
        course: Course,
        repository: CourseRepositorySpy? = nil,
        enrollments: EnrollmentRepositorySpy = EnrollmentRepositorySpy(),
        enroll: @escaping CatalogFeature.EnrollAction
    ) -> (CourseDetailScreen, CourseDetailViewModel) {
        let marks = CourseMarks(session: SessionRepositoryStub.demo, enrollments: enrollments, favourites: FavouritesRepositorySpy())
        let viewModel = CourseDetailViewModel(
            courseID: course.id,
            loadDetail: LoadCourseDetailUseCase(courses: repository ?? CourseRepositorySpy.success([course]), marks: marks),
            enroll: enroll
        )
        return (CourseDetailScreen(viewModel: viewModel, onBack: {}), viewModel)
    }

    private func draw(_ screen: CourseDetailScreen) -> TextCanvas {
        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))
        return canvas
    }
}
