import Foundation
import Platform
import SharedKernel
import TestSupport
import Testing

@testable import Storage

@Suite("Courses in SQLite")
struct SQLiteCourseRepositoryTests {
    @Test("courses come back sorted by title, ignoring case and accents")
    func sortedByTitle() async throws {
        let (sut, directory) = try makeSUT(catalog: [
            .fixture(id: "b", title: "banana bread"),
            .fixture(id: "a", title: "Zebra"),
            .fixture(id: "c", title: "Ángel investing"),
            .fixture(id: "d", title: "apple pie"),
        ])
        defer { directory.remove() }

        let titles = try await sut.everyCourse().map(\.title)

        #expect(titles == ["Ángel investing", "apple pie", "banana bread", "Zebra"])
    }

    @Test("the seeded catalog is realistic: 60+ courses, 6+ categories, every kind of course")
    func seededCatalog() async throws {
        let (sut, directory) = try makeSUT(catalog: try BuiltInCatalog.load().map(\.course))
        defer { directory.remove() }

        let courses = try await sut.everyCourse()

        #expect(courses.count >= 60)
        #expect(Set(courses.compactMap(\.category)).count >= 6)
        #expect(courses.contains { $0.isFull })
        #expect(courses.contains { !$0.isActive })
        #expect(courses.contains { $0.prerequisiteID != nil })
        #expect(courses.contains { $0.capacity == nil })
        #expect(Set(courses.map(\.level)) == Set(CourseLevel.allCases))
        #expect(courses.contains { !$0.title.allSatisfy(\.isASCII) })
        #expect(courses.contains { !$0.instructor.allSatisfy(\.isASCII) })
        #expect(
            courses.map(\.title)
                == courses.map(\.title).sorted {
                    $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                        < $1.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                })
    }

    @Test("every built-in course has a syllabus of 4 to 12 lessons whose minutes add up to its duration")
    func builtInSyllabi() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        let sut = SQLiteCourseRepository(database: database)

        for course in try await sut.everyCourse() {
            let syllabus = try await sut.syllabus(of: course.id)
            #expect((4...12).contains(syllabus.lessons.count), "\(course.id)")
            #expect(syllabus.lessons.reduce(0) { $0 + $1.minutes } == course.durationMinutes, "\(course.id)")
            #expect(Set(syllabus.lessons.map(\.title)).count == syllabus.lessons.count, "\(course.id)")
            #expect(course.lessonCount == syllabus.lessons.count, "\(course.id)")
        }
    }

    @Test("one course by id keeps every field")
    func courseByID() async throws {
        let course = Course.fixture(
            id: "swift-concurrency", title: "Swift Concurrency in Practice", category: nil, level: .advanced,
            price: Price(minorUnits: 0, currency: "USD"), capacity: nil, enrolledCount: 3,
            tags: ["swift", "async"], prerequisiteID: "swift-101", isActive: false
        )
        let (sut, directory) = try makeSUT(catalog: [.fixture(id: "swift-101"), course])
        defer { directory.remove() }

        #expect(try await sut.course(id: "swift-concurrency") == course)
    }

    @Test("an unknown id is a courseNotFound error")
    func unknownID() async throws {
        let (sut, directory) = try makeSUT(catalog: [.fixture()])
        defer { directory.remove() }

        await #expect(throws: AppError.courseNotFound("nope")) {
            try await sut.course(id: "nope")
        }
    }

    // MARK: - Helpers

    private func makeSUT(catalog: [Course]) throws -> (SQLiteCourseRepository, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { catalog.entries })
        return (SQLiteCourseRepository(database: database), directory)
    }
}
