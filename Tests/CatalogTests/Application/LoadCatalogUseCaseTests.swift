@testable import Catalog
import SharedKernel
import Testing
import TestSupport

@Suite("Load catalog and course detail")
struct LoadCatalogUseCaseTests {
    @Test("a page of the catalog is the repository's page, asked for once, with its keys")
    func returnsPage() async throws {
        let courses = [Course.fixture(id: "a", title: "A"), .fixture(id: "b", title: "B"), .fixture(id: "c", title: "C")]
        let repository = CourseRepositorySpy.success(courses)
        let sut = LoadCatalogUseCase(courses: repository, marks: .none)

        let result = try await sut.page(query: "", at: .after(CatalogKey(1)), limit: 1)

        #expect(result == [CatalogRow.Marked(key: CatalogKey(2), entry: CatalogEntry(course: courses[1], isEnrolled: false))])
        #expect(await repository.messages == [.page("", .after(CatalogKey(1)), 1)])
    }

    @Test("an empty catalog returns no courses and counts none")
    func returnsNone() async throws {
        let sut = LoadCatalogUseCase(courses: CourseRepositorySpy.success([]), marks: .none)

        #expect(try await sut.page(query: "", at: .first, limit: 10) == [])
        #expect(try await sut.count(query: "") == .exactly(0))
    }

    @Test("courses the learner is enrolled in are marked")
    func marksEnrolled() async throws {
        let courses = [Course.fixture(id: "a", title: "A"), .fixture(id: "b", title: "B")]
        let enrollments = EnrollmentRepositorySpy(courses: courses, enrollments: [.fixture(courseID: "b")])
        let sut = LoadCatalogUseCase(courses: CourseRepositorySpy.success(courses), marks: CourseMarks(session: SessionRepositoryStub.demo, enrollments: enrollments, favourites: FavouritesRepositorySpy()))

        let entries = try await sut.page(query: "", at: .first, limit: 10).map(\.entry)

        #expect(entries.map(\.isEnrolled) == [false, true])
        #expect(entries.map(\.markers) == ["", " ✓"])
    }

    @Test("a connectivity failure comes back as a connectivity error")
    func connectivity() async {
        let sut = LoadCatalogUseCase(courses: CourseRepositorySpy.offline, marks: .none)

        await #expect(throws: AppError.connectivity) { try await sut.page(query: "", at: .first, limit: 10) }
        await #expect(throws: AppError.connectivity) { try await sut.count(query: "") }
    }

    @Test("course detail loads by id with its prerequisite's title")
    func detailByID() async throws {
        let basics = Course.fixture(id: "swift-101", title: "Swift 101")
        let advanced = Course.fixture(id: "swift-201", title: "Swift 201", prerequisiteID: "swift-101")
        let repository = CourseRepositorySpy.success([basics, advanced])
        let sut = LoadCourseDetailUseCase(courses: repository, marks: .none)

        let detail = try await sut.execute(id: "swift-201")

        #expect(detail == CourseDetail(course: advanced, prerequisiteTitle: "Swift 101"))
        #expect(await repository.messages == [.course("swift-201"), .course("swift-101")])
    }

    @Test("a course without a prerequisite loads with one call")
    func detailWithoutPrerequisite() async throws {
        let repository = CourseRepositorySpy.success([.fixture(id: "swift-101")])
        let sut = LoadCourseDetailUseCase(courses: repository, marks: .none)

        let detail = try await sut.execute(id: "swift-101")

        #expect(detail.prerequisiteTitle == nil)
        #expect(await repository.messages == [.course("swift-101")])
    }

    @Test("an unknown id is a courseNotFound error")
    func unknownID() async {
        let sut = LoadCourseDetailUseCase(courses: CourseRepositorySpy.success([.fixture(id: "swift-101")]), marks: .none)

        await #expect(throws: AppError.courseNotFound("nope")) { try await sut.execute(id: "nope") }
    }
}

extension CourseMarks {
    /// Nobody signed in: nothing is marked.
    static let none = CourseMarks(session: SessionRepositoryStub.signedOut, enrollments: EnrollmentRepositorySpy(), favourites: FavouritesRepositorySpy())
}
