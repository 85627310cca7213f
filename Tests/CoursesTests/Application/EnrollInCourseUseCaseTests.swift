@testable import Courses
import SharedKernel
import Testing
import TestSupport

@Suite("Enroll in course")
struct EnrollInCourseUseCaseTests {
    static let basics = Course.fixture(id: "swift-101", title: "Swift 101")
    static let advanced = Course.fixture(id: "swift-201", title: "Swift 201", prerequisiteID: "swift-101")

    @Test("an open course with seats enrolls the learner")
    func success() async throws {
        let (sut, enrollments) = makeSUT(courses: [Self.basics])

        let enrollment = try await sut.execute(courseID: "swift-101")

        #expect(enrollment.courseID == "swift-101")
        #expect(enrollment.progress == 0)
        #expect(enrollment.status == .active)
        #expect(await enrollments.writes == [.enroll(userID: User.demo.id, courseID: "swift-101")])
    }

    @Test("a completed prerequisite lets the learner in")
    func prerequisiteCompleted() async throws {
        let (sut, enrollments) = makeSUT(courses: [Self.basics, Self.advanced], enrollments: [.fixture(courseID: "swift-101", status: .completed, progress: 100)])

        _ = try await sut.execute(courseID: "swift-201")

        #expect(await enrollments.writes == [.enroll(userID: User.demo.id, courseID: "swift-201")])
    }

    @Test("a dropped enrollment can be taken up again")
    func reenrollAfterDrop() async throws {
        let (sut, enrollments) = makeSUT(courses: [Self.basics], enrollments: [.fixture(courseID: "swift-101", status: .dropped)])

        _ = try await sut.execute(courseID: "swift-101")

        #expect(await enrollments.writes.count == 1)
    }

    static let refusals: [(String, [Course], [Enrollment], SessionRepositoryStub, CourseID, AppError)] = [
        ("not signed in", [basics], [], .signedOut, "swift-101", .notSignedIn),
        ("already enrolled", [basics], [.fixture(courseID: "swift-101")], .demo, "swift-101", .refused(.alreadyEnrolled(title: "Swift 101"))),
        ("already completed", [basics], [.fixture(courseID: "swift-101", status: .completed)], .demo, "swift-101", .refused(.alreadyEnrolled(title: "Swift 101"))),
        ("full", [.fixture(title: "Swift 101", capacity: 10, enrolledCount: 10)], [], .demo, "swift-101", .refused(.courseFull(title: "Swift 101"))),
        ("inactive", [.fixture(title: "Swift 101", isActive: false)], [], .demo, "swift-101", .refused(.courseInactive(title: "Swift 101"))),
        ("prerequisite not started", [basics, advanced], [], .demo, "swift-201", .refused(.prerequisiteNotCompleted(prerequisiteTitle: "Swift 101"))),
        ("prerequisite in progress", [basics, advanced], [.fixture(courseID: "swift-101", status: .active)], .demo, "swift-201", .refused(.prerequisiteNotCompleted(prerequisiteTitle: "Swift 101"))),
        ("unknown course", [basics], [], .demo, "nope", .courseNotFound("nope")),
    ]

    @Test("each refusal says why and writes nothing", arguments: refusals)
    func refusal(_ name: String, courses: [Course], existing: [Enrollment], session: SessionRepositoryStub, courseID: CourseID, expected: AppError) async {
        let (sut, enrollments) = makeSUT(courses: courses, enrollments: existing, session: session)

        await #expect(throws: expected) { try await sut.execute(courseID: courseID) }

        #expect(await enrollments.writes == [])
    }

    @Test("refusals read as SPEC writes them", arguments: [
        (EnrollmentRefusal.alreadyEnrolled(title: "Swift 101"), "You are already enrolled in Swift 101"),
        (.courseFull(title: "Swift 101"), "Swift 101 is full"),
        (.courseInactive(title: "Swift 101"), "Swift 101 is not open for enrollment"),
        (.prerequisiteNotCompleted(prerequisiteTitle: "Swift Fundamentals"), "Complete Swift Fundamentals first"),
    ])
    func messages(refusal: EnrollmentRefusal, text: String) {
        #expect(AppError.refused(refusal).userMessage == text)
    }

    // MARK: - Helpers

    private func makeSUT(
        courses: [Course],
        enrollments existing: [Enrollment] = [],
        session: SessionRepositoryStub = .demo
    ) -> (EnrollInCourseUseCase, EnrollmentRepositorySpy) {
        let enrollments = EnrollmentRepositorySpy(courses: courses, enrollments: existing)
        let sut = EnrollInCourseUseCase(session: session, courses: CourseRepositorySpy.success(courses), enrollments: enrollments)
        return (sut, enrollments)
    }
}
