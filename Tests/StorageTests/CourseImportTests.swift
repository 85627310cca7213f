import Foundation
import GRDB
import SharedKernel
@testable import Storage
import Testing
import TestSupport

@Suite("Course import")
struct CourseImportTests {
    static let catalog: [Course] = [
        .fixture(id: "stored", title: "Stored Course", capacity: 40, enrolledCount: 3),
        .fixture(id: "other", title: "Other Course"),
    ]

    /// A valid entry that would be added if a bad file were written in part.
    static let newEntry = #"{"id": "new-one", "title": "New One", "instructor": "A", "level": "beginner", "duration_minutes": 5, "price": 0, "currency": "EUR", "description": "D"}"#

    /// SPEC's example entry; each bad-file case edits one part of it.
    static let example = CourseJSONTests.valid

    struct BadFile: CustomTestStringConvertible, Sendable {
        let name: String
        let contents: String
        let message: String
        var testDescription: String { name }
    }

    static let badFiles: [BadFile] = [
        BadFile(
            name: "not JSON",
            contents: "[\(newEntry), {\"id\": ",
            message: "the file is not valid JSON"
        ),
        BadFile(
            name: "a missing field",
            contents: "[\(newEntry), \(example.replacingOccurrences(of: #""title": "Swift Concurrency in Practice","#, with: ""))]",
            message: #"entry 1 (id "swift-concurrency"): field "title" is missing"#
        ),
        BadFile(
            name: "a wrong-typed field",
            contents: "[\(newEntry), \(example.replacingOccurrences(of: #""duration_minutes": 150"#, with: #""duration_minutes": "long""#))]",
            message: #"entry 1 (id "swift-concurrency"): field "duration_minutes" must be a whole number"#
        ),
        BadFile(
            name: "an unknown level",
            contents: "[\(newEntry), \(example.replacingOccurrences(of: #""level": "intermediate""#, with: #""level": "expert""#))]",
            message: #"entry 1 (id "swift-concurrency"): field "level" must be one of beginner, intermediate, advanced"#
        ),
        BadFile(
            name: "a negative price",
            contents: "[\(newEntry), \(example.replacingOccurrences(of: #""price": 35.99"#, with: #""price": -0.01"#))]",
            message: #"entry 1 (id "swift-concurrency"): field "price" must be 0 or more"#
        ),
        BadFile(
            name: "an id twice in the file",
            contents: "[\(newEntry), \(example), \(example.replacingOccurrences(of: "Swift Concurrency in Practice", with: "Again"))]",
            message: #"entry 2 (id "swift-concurrency"): field "id" repeats an id used earlier in the file"#
        ),
        BadFile(
            name: "a prerequisite that exists neither in the file nor in the database",
            contents: "[\(newEntry), \(example.replacingOccurrences(of: #""prerequisite_id": null"#, with: #""prerequisite_id": "ghost""#))]",
            message: #"entry 1 (id "swift-concurrency"): field "prerequisite_id" names "ghost", which is not a known course"#
        ),
    ]

    @Test("a bad file is refused naming the entry and field, and the database is unchanged", arguments: badFiles)
    func badFile(_ file: BadFile) async throws {
        let (database, directory) = try makeSUT()
        defer { directory.remove() }
        let before = try await snapshot(database)

        let error = #expect(throws: CourseImportError.self) { try database.importCourses(from: Data(file.contents.utf8)) }

        #expect(error?.description.hasPrefix(file.message) == true, "\(String(describing: error))")
        #expect(try await snapshot(database) == before)
    }

    @Test("a good file adds new ids and updates known ones, with their counts")
    func addsAndUpdates() async throws {
        let (database, directory) = try makeSUT()
        defer { directory.remove() }
        let renamed = Self.example
            .replacingOccurrences(of: #""id": "swift-concurrency""#, with: #""id": "stored""#)
            .replacingOccurrences(of: "Swift Concurrency in Practice", with: "Stored, Renamed")
        let dependent = Self.example.replacingOccurrences(of: #""prerequisite_id": null"#, with: #""prerequisite_id": "other""#)

        let summary = try database.importCourses(from: Data("{\"courses\": [\(Self.newEntry), \(renamed), \(dependent)]}".utf8))

        #expect(summary == CourseImportSummary(added: 2, updated: 1))
        let courses = try await SQLiteCourseRepository(database: database).everyCourse()
        #expect(courses.map(\.title) == ["New One", "Other Course", "Stored, Renamed", "Swift Concurrency in Practice"])
        #expect(courses.first { $0.id == "swift-concurrency" }?.prerequisiteID == "other")
        #expect(try await SQLiteCourseRepository(database: database).find("renamed").map(\.id) == ["stored"])
    }

    @Test("importing the same file twice updates everything the second time")
    func idempotent() throws {
        let (database, directory) = try makeSUT()
        defer { directory.remove() }
        let file = Data("[\(Self.newEntry), \(Self.example)]".utf8)

        let first = try database.importCourses(from: file)
        let second = try database.importCourses(from: file)

        #expect(first == CourseImportSummary(added: 2, updated: 0))
        #expect(second == CourseImportSummary(added: 0, updated: 2))
    }

    @Test("an update never counts fewer enrolled learners than hold a seat here")
    func keepsLocalSeats() async throws {
        let (database, directory) = try makeSUT()
        defer { directory.remove() }
        let user = try #require(try await database.signInDemo())
        _ = try await SQLiteEnrollmentRepository(database: database).enroll(userID: user.id, courseID: "other")
        let update = Self.newEntry.replacingOccurrences(of: #""id": "new-one""#, with: #""id": "other""#)

        _ = try database.importCourses(from: Data("[\(update)]".utf8))

        let other = try await SQLiteCourseRepository(database: database).course(id: "other")
        #expect(other.enrolledCount == 1)
    }

    @Test("courses imported one at a time take their place in title order and are found by search, even where no gap is left")
    func placesInOrder() async throws {
        let (database, directory) = try makeSUT()
        defer { directory.remove() }
        // Each lands right after "Other Course" and before "Stored Course": the gap between
        // ranks halves each time until it is used up and the catalog is renumbered.
        var imported: [Course] = []
        for number in 0..<40 {
            let title = "Other Course \(String(repeating: "z", count: 40 - number))"
            let entry = Self.newEntry
                .replacingOccurrences(of: #""id": "new-one""#, with: #""id": "placed-\#(number)""#)
                .replacingOccurrences(of: "New One", with: title)
            _ = try database.importCourses(from: Data("[\(entry)]".utf8))
            imported.append(.fixture(id: CourseID("placed-\(number)"), title: title))
        }
        // A title that changes moves its course.
        let renamed = Self.newEntry
            .replacingOccurrences(of: #""id": "new-one""#, with: #""id": "placed-0""#)
            .replacingOccurrences(of: "New One", with: "Aardvark")
        _ = try database.importCourses(from: Data("[\(renamed)]".utf8))
        imported[0] = .fixture(id: "placed-0", title: "Aardvark")
        let sut = SQLiteCourseRepository(database: database)

        let page = try await sut.page(matching: "", at: .first, limit: 100)
        let found = try await sut.page(matching: "other cour z", at: .first, limit: 100)

        let expected = BruteForceSearch.catalogOrder(Self.catalog + imported).map(\.id)
        #expect(page.map(\.course.id) == expected)
        #expect(zip(page, page.dropFirst()).allSatisfy { $0.key < $1.key })
        #expect(found.map(\.course.id) == expected.filter { $0.rawValue.hasPrefix("placed-") && $0 != "placed-0" })
        #expect(try await sut.page(matching: "aardvark", at: .first, limit: 5).map(\.course.id) == ["placed-0"])
    }

    @Test("a failure in the middle of the writes leaves nothing of the file behind")
    func allOrNothing() async throws {
        let (database, directory) = try makeSUT()
        defer { directory.remove() }
        // The store refuses the second course after the first was written.
        try await database.writer.write { db in
            try db.execute(sql: """
                CREATE TRIGGER refuse_boom BEFORE INSERT ON course WHEN NEW.id = 'boom'
                BEGIN SELECT RAISE(ABORT, 'boom refused'); END
                """)
        }
        let before = try await snapshot(database)
        let boom = Self.newEntry.replacingOccurrences(of: #""id": "new-one""#, with: #""id": "boom""#)

        #expect(throws: CourseImportError.storage(reason: "boom refused")) {
            try database.importCourses(from: Data("[\(Self.newEntry), \(boom)]".utf8))
        }

        #expect(try await snapshot(database) == before)
    }

    // MARK: - Helpers

    private func makeSUT() throws -> (AppDatabase, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { Self.catalog })
        return (database, directory)
    }

    /// Every stored course, every column.
    private func snapshot(_ database: AppDatabase) async throws -> [String] {
        try await database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM course ORDER BY id").map(\.description)
        }
    }
}
