import Foundation
import GRDB
import Platform
import SharedKernel
import Synchronization
import TestSupport
import Testing

@testable import Storage

@Suite("Course import")
struct CourseImportTests {
    static let catalog: [Course] = [
        .fixture(id: "stored", title: "Stored Course", capacity: 40, enrolledCount: 3, prerequisiteID: "other"),
        .fixture(id: "other", title: "Other Course"),
    ]

    /// A valid entry that would be added if a bad file were written in part.
    static let newEntry =
        #"{"id": "new-one", "title": "New One", "instructor": "A", "level": "beginner", "duration_minutes": 5, "price": 0, "currency": "EUR", "description": "D"}"#

    /// SPEC's example entry; each bad-file case edits one part of it.
    static let example = CourseJSONExample.valid

    struct BadFile: CustomTestStringConvertible, Sendable {
        let name: String
        let contents: String
        let message: String
        var testDescription: String { name }
    }

    /// The example as the second entry, with `original` replaced.
    static func edited(_ original: String, _ replacement: String) -> String {
        "[\(newEntry), \(example.replacingOccurrences(of: original, with: replacement))]"
    }

    static let entry1 = #"entry 1 (id "swift-concurrency"): "#

    /// Every way a file was seen to hurt: each is refused with the entry, id and field, and
    /// changes nothing.
    static let badFiles: [BadFile] = [
        BadFile(name: "not JSON", contents: "[\(newEntry),\n {\"id\": ", message: "the file is not valid JSON: line 2, column"),
        BadFile(
            name: "a missing field", contents: edited(#""title": "Swift Concurrency in Practice","#, ""),
            message: entry1 + #"field "title" is missing"#),
        BadFile(
            name: "a wrong-typed field", contents: edited(#""duration_minutes": 150"#, #""duration_minutes": "long""#),
            message: entry1 + #"field "duration_minutes" must be a whole number from 1 to 100000"#
        ),
        BadFile(
            name: "an unknown level", contents: edited(#""level": "intermediate""#, #""level": "expert""#),
            message: entry1 + #"field "level" must be one of beginner, intermediate, advanced"#
        ),
        BadFile(
            name: "a negative price", contents: edited(#""price": 35.99"#, #""price": -0.01"#),
            message: entry1 + #"field "price" must be between 0 and 1000000"#),
        BadFile(
            name: "a price past any integer", contents: edited(#""price": 35.99"#, #""price": 1e17"#),
            message: entry1 + #"field "price" must be between 0 and 1000000"#),
        BadFile(
            name: "a duration out of range", contents: edited(#""duration_minutes": 150"#, #""duration_minutes": 100001"#),
            message: entry1 + #"field "duration_minutes" must be a whole number from 1 to 100000"#
        ),
        BadFile(
            name: "a capacity of 0", contents: edited(#""capacity": 40"#, #""capacity": 0"#),
            message: entry1 + #"field "capacity" must be a whole number from 1 to 10000000, or null"#
        ),
        BadFile(
            name: "more learners than seats", contents: edited(#""enrolled_count": 12"#, #""enrolled_count": 41"#),
            message: entry1 + #"field "enrolled_count" must not be above capacity (40)"#
        ),
        BadFile(
            name: "an enrolled count past any seat, unlimited",
            contents: edited(#""capacity": 40, "enrolled_count": 12"#, #""capacity": null, "enrolled_count": 9223372036854775807"#),
            message: entry1 + #"field "enrolled_count" must be a whole number from 0 to 10000000"#
        ),
        BadFile(
            name: "an id twice in the file", contents: "[\(newEntry), \(example), \(example)]",
            message: #"entry 2 (id "swift-concurrency"): field "id" repeats an id used earlier in the file"#),
        BadFile(
            name: "a NUL inside the id", contents: edited(#""id": "swift-concurrency""#, #""id": "agile-scrum\u0000evil""#),
            message: #"entry 1 (id "agile-scrum\u{0}evil"): field "id" must be 1 to 64 of the characters A-Z a-z 0-9 . _ -"#
        ),
        BadFile(
            name: "escape sequences in the id",
            contents: edited(#""id": "swift-concurrency""#, #""id": "x\u001b]52;c;cHduZWQ=\u0007\u001b]0;PWNED\u0007\u001b[2J""#),
            message: #"entry 1 (id "x\u{1B}]52;c;cHduZWQ=\u{7}\u{1B}]0;PWNED\u{7}\u{1B}[2J"): field "id" must be"#
        ),
        BadFile(
            name: "a title that is only control characters",
            contents: edited(#""title": "Swift Concurrency in Practice""#, #""title": "\u0000\u0007""#),
            message: entry1 + #"field "title" must not be empty"#
        ),
        BadFile(
            name: "a title that is only an escape sequence and a bell (issue 22)",
            contents: edited(#""title": "Swift Concurrency in Practice""#, #""title": "\u001b[2J\u0007""#),
            message: entry1 + #"field "title" must not be empty"#
        ),
        BadFile(
            name: "an instructor that is only a window title sequence and zero-width characters",
            contents: edited(#""instructor": "María García""#, #""instructor": "\u001b]0;PWNED\u0007\u200b\u202e""#),
            message: entry1 + #"field "instructor" must not be empty"#
        ),
        BadFile(
            name: "an unknown field (a typo)", contents: edited(#""prerequisite_id": null"#, #""prerequisit": "other""#),
            message: entry1 + #"unknown field "prerequisit""#
        ),
        BadFile(
            name: "a prerequisite that exists neither in the file nor in the database",
            contents: edited(#""prerequisite_id": null"#, #""prerequisite_id": "ghost""#),
            message: entry1 + #"field "prerequisite_id" names "ghost", which is not a known course"#
        ),
        BadFile(
            name: "a course that is its own prerequisite",
            contents: edited(#""prerequisite_id": null"#, #""prerequisite_id": "swift-concurrency""#),
            message: entry1 + #"field "prerequisite_id" names the course itself"#
        ),
        BadFile(
            name: "prerequisites in a cycle within the file",
            contents:
                "[\(newEntry.replacingOccurrences(of: #""price": 0"#, with: #""price": 0, "prerequisite_id": "swift-concurrency""#)), \(example.replacingOccurrences(of: #""prerequisite_id": null"#, with: #""prerequisite_id": "new-one""#))]",
            message: #"entry 0 (id "new-one"): field "prerequisite_id": prerequisites form a cycle: new-one → swift-concurrency → new-one"#
        ),
        BadFile(
            name: "prerequisites in a cycle through a stored course",
            contents:
                "[\(newEntry.replacingOccurrences(of: #""id": "new-one""#, with: #""id": "other""#).replacingOccurrences(of: #""price": 0"#, with: #""price": 0, "prerequisite_id": "stored""#))]",
            message: #"entry 0 (id "other"): field "prerequisite_id": prerequisites form a cycle: other → stored → other"#
        ),
        BadFile(
            name: "no lessons", contents: edited(#""active": true,"#, #""active": true, "lessons": [],"#),
            message: entry1 + #"field "lessons" must hold 1 to 200 lessons"#),
        BadFile(
            name: "201 lessons",
            contents: edited(
                #""active": true,"#,
                #""active": true, "lessons": ["# + Array(repeating: #"{"title": "L", "minutes": 1}"#, count: 201).joined(separator: ",")
                    + "],"),
            message: entry1 + #"field "lessons" must hold 1 to 200 lessons"#
        ),
        BadFile(
            name: "a lesson of 0 minutes",
            contents: edited(
                #""active": true,"#, #""active": true, "lessons": [{"title": "A", "minutes": 5}, {"title": "B", "minutes": 0}],"#),
            message: entry1 + #"field "lessons[1].minutes" must be a whole number from 1 to 100000"#
        ),
        BadFile(
            name: "a lesson without a title",
            contents: edited(#""active": true,"#, #""active": true, "lessons": [{"title": " ", "minutes": 5}],"#),
            message: entry1 + #"field "lessons[0].title" must not be empty"#
        ),
        BadFile(
            name: "a lesson with an unknown field",
            contents: edited(#""active": true,"#, #""active": true, "lessons": [{"title": "A", "mins": 5}],"#),
            message: entry1 + #"unknown field "lessons[0].mins""#
        ),
    ]

    @Test("a bad file is refused naming the entry and field, and the database is unchanged", arguments: badFiles)
    func badFile(_ file: BadFile) async throws {
        let (database, directory) = try makeSUT()
        defer { directory.remove() }
        let before = try await snapshot(database)

        let error = #expect(throws: CourseImportError.self) { try database.importCourses(from: Data(file.contents.utf8)) }

        #expect(error?.description.hasPrefix(file.message) == true, "\(String(describing: error))")
        #expect(error?.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } == false)
        #expect(try await snapshot(database) == before)
    }

    @Test(
        "every value of a course is stored as given (an empty description, accents, CJK, no category, no seat limit), in bulk as one by one",
        arguments: [false, true])
    func storesValuesAsGiven(bulk: Bool) async throws {
        let (database, directory) = try makeSUT()
        defer { directory.remove() }
        // The values are bound to SQLite one by one (`CourseRowWriter`): an empty text must stay
        // a text, a missing value NULL, each in its own column.
        let given = [
            Course.fixture(
                id: "texts-1", title: "Ünïcode 日本語 入門", instructor: "Zoë Schäfer", category: nil, level: .advanced,
                durationMinutes: 45, price: Price(minorUnits: 0, currency: "USD"), capacity: nil, enrolledCount: 0,
                tags: ["日本語", "ü"], prerequisiteID: "other", isActive: false, description: ""),
            Course.fixture(
                id: "texts-2", title: "Second", instructor: "Kenji Watanabe", category: "Música", level: .intermediate,
                durationMinutes: 600, price: Price(minorUnits: 11_999, currency: "EUR"), capacity: 510, enrolledCount: 9,
                tags: [], description: "Tabs\tand \"quotes\" and back\\slashes"),
        ]
        let generated = bulk ? GeneratedCatalog.courses(count: 1_200) : []
        _ = try await onOwnThread { try database.importCourses(generated + given) }

        let repository = SQLiteCourseRepository(database: database)
        for course in given {
            let stored = try await repository.syllabus(of: course.id).course
            #expect(stored == course)
        }
        // The keys and places no course value shows, each in its own column too.
        let keys = CourseKeyFolding.keys(of: given.map { CourseEntry(course: $0) })
        let rows = try database.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT sort_key, search_key, category_key, sort_rank, added_seq FROM course WHERE id LIKE 'texts-%' ORDER BY id")
        }
        #expect(rows.map { $0["sort_key"] as String } == keys.map(\.sortKey))
        #expect(rows.map { $0["search_key"] as String } == keys.map(\.searchKey))
        #expect(rows.map { $0["category_key"] as String } == keys.map(\.categoryKey))
        #expect(rows.allSatisfy { ($0["sort_rank"] as Int64?) != nil })
        let added = rows.compactMap { $0["added_seq"] as Int64? }
        #expect(added.count == 2 && added[0] < added[1], "newest in the file's order: \(added)")

        // Stored already: every value of the file's course replaces the stored one.
        let changed = Course.fixture(
            id: "texts-2", title: "Second, Renamed", instructor: "Aoife Ní Bhriain", category: "Cocina", level: .beginner,
            durationMinutes: 5, price: Price(minorUnits: 1, currency: "JPY"), capacity: 9, enrolledCount: 2,
            tags: ["nuevo"], prerequisiteID: "texts-1", isActive: false, description: "Changed.")
        _ = try await onOwnThread { try database.importCourses(generated + [given[0], changed]) }
        #expect(try await repository.syllabus(of: changed.id).course == changed)
    }

    @Test("lessons are stored in order and replace the ones before")
    func storesLessons() async throws {
        let (database, directory) = try makeSUT()
        defer { directory.remove() }
        let first = Self.edited(
            #""active": true,"#, #""active": true, "lessons": [{"title": "A", "minutes": 50}, {"title": "B", "minutes": 100}],"#)
        let second = Self.edited(#""active": true,"#, #""active": true, "lessons": [{"title": "C", "minutes": 150}],"#)

        _ = try database.importCourses(from: Data(first.utf8))
        let before = try await SQLiteCourseRepository(database: database).syllabus(of: "swift-concurrency")
        _ = try database.importCourses(from: Data(second.utf8))
        let after = try await SQLiteCourseRepository(database: database).syllabus(of: "swift-concurrency")

        #expect(before.lessons == [Lesson(title: "A", minutes: 50), Lesson(title: "B", minutes: 100)])
        #expect(before.course.lessonCount == 2)
        #expect(after.lessons == [Lesson(title: "C", minutes: 150)])
        #expect(after.course.lessonCount == 1)
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

    @Test(
        "a bulk import defers the per-row upkeep and leaves every index and trigger as it found them, the size counted, the revision moved")
    func bulkUpkeep() async throws {
        let (database, directory) = try makeSUT()
        defer { directory.remove() }
        let user = try await database.signInDemo()
        try await SQLiteFavouritesRepository(database: database).setFavourite(true, userID: user.id, courseID: "stored")
        let schema = { @Sendable (db: Database) throws -> [String] in
            try String.fetchAll(db, sql: "SELECT type || ' ' || name || ' ' || sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
        }
        let before = try await database.writer.read(schema)
        let revision = try await database.writer.read { db in try CatalogRevision.read(in: db) }
        // Enough to take the bulk path, with the stored courses among them (updated in place).
        let courses = GeneratedCatalog.courses(count: 1_500) + [.fixture(id: "stored", title: "Stored Course, Again")]

        let summary = try await onOwnThread { try database.importCourses(courses) }

        let after = try await database.writer.read(schema)
        let repository = SQLiteCourseRepository(database: database)
        let everything = try await repository.countedPage(CatalogQuery.parse(""), for: user.id, at: .first, limit: 3)
        var byNewest = CatalogQuery.parse("")
        byNewest.sort = try #require(CatalogSort(apiText: "newest"))
        let newest = try await repository.countedPage(byNewest, for: user.id, at: .first, limit: 1)
        let mine = try await repository.countedPage(CatalogQuery.parse("is:favourite"), for: user.id, at: .first, limit: 5)
        #expect(summary == CourseImportSummary(added: 1_500, updated: 1))
        #expect(after == before, "indexes and triggers as they were")
        #expect(everything.total == .exactly(1_502))
        #expect(try await database.writer.read { db in try CatalogRevision.read(in: db) } > revision)
        #expect(mine.rows.map(\.course.title) == ["Stored Course, Again"], "the favourite follows its course's new rank")
        #expect(try await repository.find("again").map(\.id) == ["stored"], "the search index rebuilt")
        #expect(newest.rows.map(\.course.id.rawValue) == [GeneratedCatalog.id(1_500)], "the last new course is the newest")
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

    @Test("courses handed over in memory with an id twice: the second updates what the first added, in bulk as one by one")
    func repeatedIDInMemory() async throws {
        let (database, directory) = try makeSUT()
        defer { directory.remove() }
        let courses = GeneratedCatalog.courses(count: 1_200)
        let repeated = Course.fixture(id: courses[0].id, title: "Repeated Last")

        let bulk = try await onOwnThread { try database.importCourses(courses + [repeated]) }
        let one = try database.importCourses([.fixture(id: "twice", title: "First"), .fixture(id: "twice", title: "Second")])

        #expect(bulk == CourseImportSummary(added: courses.count, updated: 1))
        #expect(one == CourseImportSummary(added: 1, updated: 1))
        let titles = try await database.writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT title FROM course WHERE id IN (?, 'twice') ORDER BY id", arguments: [courses[0].id.rawValue])
        }
        #expect(titles.sorted() == ["Repeated Last", "Second"])
    }

    @Test("an update never counts fewer enrolled learners than hold a seat here")
    func keepsLocalSeats() async throws {
        let (database, directory) = try makeSUT()
        defer { directory.remove() }
        let user = try await database.signInDemo()
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
        // One repository throughout: the counts it keeps must follow every import, renumbering
        // included (which rewrites every rank with the catalog's triggers off).
        let counting = SQLiteCourseRepository(database: database)
        var counts: [CatalogCount] = []
        // The steps each import told: the one that renumbers shows it, the others do not.
        var steps: [[ImportProgress.Step]] = []
        for number in 0..<40 {
            let title = "Other Course \(String(repeating: "z", count: 40 - number))"
            let entry = Self.newEntry
                .replacingOccurrences(of: #""id": "new-one""#, with: #""id": "placed-\#(number)""#)
                .replacingOccurrences(of: "New One", with: title)
            let progress = ImportProgress()
            _ = try database.importCourses(from: Data("[\(entry)]".utf8), progress: progress)
            progress.end()
            steps.append(progress.snapshot.finished.map(\.step))
            imported.append(.fixture(id: CourseID("placed-\(number)"), title: title))
            counts.append(try await counting.count(matching: "other cour z"))
        }
        #expect(counts == (1...40).map { .exactly($0) })
        let renumbering: [ImportProgress.Step] = [.ordering, .writing, .ordering, .indexing, .compacting, .finishing]
        let renumbered = steps.filter { $0 == renumbering }.count
        #expect(renumbered >= 1)
        #expect(steps.filter { $0 == [.ordering, .writing, .finishing] }.count == 40 - renumbered, "\(Set(steps.map { "\($0)" }))")
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

    @Test("two keys whose first sixteen bytes differ are in the order SQLite's BINARY collation gives them")
    func leadingBytesOrder() {
        // Shorter and longer, a NUL, sixteen bytes alike then not, accents composed and not, CJK.
        let keys = [
            "", "a", "a\u{0}", "a\u{0}b", "ab", "abcdefghijklmnop", "abcdefghijklmnopq", "abcdefghijklmnoq", "abcdefgh",
            "abcdefgi", "abcdefghab", "abcdefghba", "ba", "é", "e\u{301}", "日本", "日本語", "z", "ｚ", "\u{7F}", "\u{80}",
        ]
        for left in keys {
            for right in keys where BulkPlaces.leadingBytes(left) != BulkPlaces.leadingBytes(right) {
                let binary = Array(left.utf8).lexicographicallyPrecedes(Array(right.utf8))
                #expect(
                    (BulkPlaces.leadingBytes(left) < BulkPlaces.leadingBytes(right)) == binary,
                    "\(left.debugDescription) against \(right.debugDescription)")
            }
        }
    }

    @Test(
        "many courses at once are written at the ranks a renumbering gives, stored courses moved to theirs, the search index whole (filled in the transaction, or built beside it)",
        arguments: [true, false], [false, true])
    func bulkPlaces(intoEmpty: Bool, beside: Bool) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let seed = intoEmpty ? [] : Self.catalog.entries
        // Imports of thousands of courses run on threads of their own, not on the few every
        // test's tasks share (a remote test's request would wait behind them).
        let database = try await onOwnThread {
            try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { seed })
        }
        // Titles that fold alike (ties broken by id, given here against the file's order),
        // accents, letters folded to two, CJK, and the generated catalog's repeated titles.
        let awkward = ["Ωmega", "ｚeta", "Zeta", "zeta", "Ébène", "ebene", "Straße", "strasse", "日本語", "ǅemal"].enumerated().map {
            Course.fixture(id: CourseID("awkward-\(9 - $0.offset)"), title: $0.element)
        }
        // Beside stored courses, one of them renamed to the front; the other keeps its title
        // and moves with the courses placed before it.
        let renamed = intoEmpty ? [] : [Course.fixture(id: "other", title: "Aardvark")]
        let courses = GeneratedCatalog.courses(count: 2_500) + awkward + renamed
        let sut = SQLiteCourseRepository(database: database)

        let progress = ImportProgress()
        let summary = try await onOwnThread { try database.importCourses(courses, progress: progress, sideIndexFrom: beside ? 1 : .max) }
        progress.end()
        #expect(progress.snapshot.finished.map(\.step).contains(.compacting) == !beside, "the index built beside, or filled after")

        #expect(summary == CourseImportSummary(added: courses.count - renamed.count, updated: renamed.count))
        let leftBeside = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("search-index") }
        #expect(leftBeside.isEmpty, "the side index's file is gone: \(leftBeside)")
        let ranks = try await database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT id, sort_rank FROM course ORDER BY id").map {
                "\($0["id"] as String) \($0["sort_rank"] as Int64)"
            }
        }
        // The fill's big in-memory buffer is stored with the index: every later write must find
        // FTS5's default again.
        let buffer = try await database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT v FROM course_search_config WHERE k = 'hashsize'")
        }
        #expect(buffer == CatalogOrder.defaultHashSize)
        let renumbered = try await database.writer.write { db in
            // Rank 1: the index checked against the courses too, word by word.
            try db.execute(sql: "INSERT INTO course_search (course_search, rank) VALUES ('integrity-check', 1)")
            try CatalogOrder.renumber(db)
            return try Row.fetchAll(db, sql: "SELECT id, sort_rank FROM course ORDER BY id").map {
                "\($0["id"] as String) \($0["sort_rank"] as Int64)"
            }
        }
        #expect(ranks.count == courses.count + (intoEmpty ? 0 : 1))
        // The ids whose ranks differ, not the thousands that agree.
        #expect(Set(ranks).symmetricDifference(renumbered).sorted() == [])
        let everything = courses + (intoEmpty ? [] : [Self.catalog[0]])
        let queries = ["swift", "zeta", "ebene", "strasse", "日本", "dzemal", "garcia fund", "aardvark", "stored", "other"]
        // The brute force folds every course for each query: seconds in a debug build.
        let (first, expected) = try await onOwnThread {
            (
                BruteForceSearch.catalogOrder(everything).prefix(100).map(\.id),
                queries.map { BruteForceSearch.catalogOrder(BruteForceSearch.matches(everything, query: $0)).prefix(50).map(\.id) }
            )
        }
        let page = try await sut.page(matching: "", at: .first, limit: 100)
        #expect(page.map(\.course.id) == first)
        for (query, expected) in zip(queries, expected) {
            let found = try await sut.page(matching: query, at: .first, limit: 50)
            #expect(found.map(\.course.id) == expected, "\(query)")
        }
    }

    @Test(
        "an index built beside the writes has each course's facets as the courses' own column: free or not, open or not, seats held here counted, stored courses the file leaves"
    )
    func besideFacets() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try await onOwnThread {
            try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { Self.catalog.entries })
        }
        let user = try await database.signInDemo()
        // A seat held here on a course the file says has none taken, and capacity one: full.
        let held = Course.fixture(id: "held", title: "Held Seat", capacity: 1, enrolledCount: 0)
        _ = try await onOwnThread { try database.importCourses([held]) }
        _ = try await SQLiteEnrollmentRepository(database: database).enroll(userID: user.id, courseID: "held")
        let varied = (0..<1_200).map { index in
            Course.fixture(
                id: CourseID("varied-\(index)"), title: "Varied \(index)", category: index % 7 == 0 ? nil : "Cat \(index % 5)",
                level: CourseLevel.allCases[index % CourseLevel.allCases.count],
                price: Price(minorUnits: index % 3 == 0 ? 0 : 1_000 + index, currency: "EUR"),
                capacity: [nil, 1, 10, 50][index % 4], enrolledCount: [0, 1, 10, 49][index / 4 % 4], isActive: index % 5 != 0)
        }

        // More than a thousand: a bulk import.
        let progress = ImportProgress()
        _ = try await onOwnThread { try database.importCourses(varied + [held], progress: progress, sideIndexFrom: 1) }
        progress.end()
        #expect(!progress.snapshot.finished.map(\.step).contains(.compacting), "built beside the writes, not filled after them")

        let (checked, open, full) = try await database.writer.write { db in
            try db.execute(sql: "INSERT INTO course_search (course_search, rank) VALUES ('integrity-check', 1)")
            let open = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM course_search WHERE course_search MATCH 'search_facets : \"_isavail\"'")
            let full = try Int.fetchOne(db, sql: "SELECT count(*) FROM course WHERE search_facets NOT LIKE '%_isavail%'")
            let stored = try Int.fetchOne(db, sql: "SELECT count(*) FROM course") ?? 0
            return (stored, open ?? 0, full ?? 0)
        }
        #expect(checked == Self.catalog.entries.count + varied.count + 1, "the stored courses the file leaves are indexed too")
        #expect(open == checked - full, "as many open in the index as the courses say")
        let heldCourse = try await SQLiteCourseRepository(database: database).course(id: "held")
        #expect(heldCourse.enrolledCount == 1, "the seat held here kept")
        let openIDs = try await SQLiteCourseRepository(database: database).page(matching: "held is:open", at: .first, limit: 5)
        #expect(openIDs.isEmpty, "full with the seat held here: not open")
    }

    @Test("an import tells its steps as it goes: a bulk one every step in order with whole counts, a small one its writes")
    func progressSteps() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try await onOwnThread {
            try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { Self.catalog.entries })
        }
        let courses = GeneratedCatalog.courses(count: 2_500)
        let bulk = ImportProgress()

        _ = try await onOwnThread { try database.importCourses(courses, progress: bulk) }
        bulk.end()

        #expect(bulk.snapshot.finished.map(\.step) == [.ordering, .writing, .indexing, .compacting, .finishing])
        // The search index is filled with the whole catalog: the stored courses too.
        #expect(bulk.snapshot.finished.map(\.count) == [nil, 2_500, 2_502, nil, nil])

        let beside = ImportProgress()
        _ = try await onOwnThread { try database.importCourses(GeneratedCatalog.courses(count: 2_500), progress: beside, sideIndexFrom: 1) }
        beside.end()
        // Built while the rows were written: what is left is waiting for it, and its copy.
        #expect(beside.snapshot.finished.map(\.step) == [.ordering, .writing, .indexing, .finishing])
        #expect(beside.snapshot.finished.map(\.count) == [nil, 2_500, 2_502, nil])

        let small = ImportProgress()
        _ = try await onOwnThread { try database.importCourses([.fixture(id: "one-more", title: "One More")], progress: small) }
        small.end()
        #expect(small.snapshot.finished.map(\.step) == [.ordering, .writing, .finishing])
        #expect(small.snapshot.finished.map(\.count) == [nil, 1, nil])
    }

    @Test(
        "a file import tells its reading, then the opening of the database (a new one made and seeded), then its writes; a broken file makes no database"
    )
    func fileImportSteps() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("courses.json")
        try Data(
            #"[{"id": "one", "title": "One", "instructor": "I", "level": "beginner", "duration_minutes": 5, "price": 1, "currency": "EUR", "description": "D"}]"#
                .utf8
        ).write(to: file)
        let data = directory.url.appendingPathComponent("data")
        let progress = ImportProgress()

        let outcome = try await onOwnThread {
            CourseFileImport.run(file: file.path, dataDirectory: data, progress: progress, passwordHasher: .fast)
        }
        progress.end()

        #expect(outcome.succeeded)
        #expect(progress.snapshot.finished.map(\.step) == [.reading, .opening, .ordering, .writing, .finishing])
        #expect(progress.snapshot.finished.map(\.count) == [1, nil, nil, 1, nil])

        let broken = directory.url.appendingPathComponent("broken.json")
        try Data("[{".utf8).write(to: broken)
        let never = directory.url.appendingPathComponent("never")
        let brokenProgress = ImportProgress()
        let failed = try await onOwnThread {
            CourseFileImport.run(file: broken.path, dataDirectory: never, progress: brokenProgress, passwordHasher: .fast)
        }
        guard case .failed(let reason) = failed else {
            Issue.record("a broken file was imported")
            return
        }
        #expect(reason.english.hasPrefix("cannot import \(broken.path), nothing was changed: "), "\(reason.english)")
        #expect(brokenProgress.snapshot.step == .reading && brokenProgress.snapshot.finished.isEmpty, "the database never opened")
        #expect(!FileManager.default.fileExists(atPath: never.path))
    }

    @Test("the search index's fill counts each row as it reaches the index, in rank order, with the rank's index dropped")
    func indexingCountedInOrder() throws {
        let queue = try DatabaseQueue()
        let calls = Mutex<[Int64]>([])
        try queue.write { db in
            // No index on the rank, as in a bulk import: SQLite sorts the rows.
            try db.execute(sql: "CREATE TABLE course (id INTEGER PRIMARY KEY, sort_rank INTEGER, a TEXT)")
            try db.execute(sql: "CREATE VIRTUAL TABLE course_search USING fts5(a, content = 'course', content_rowid = 'sort_rank')")
            for id in 0..<500 {
                // Ranks out of the table's order.
                try db.execute(
                    sql: "INSERT INTO course (id, sort_rank, a) VALUES (?, ?, ?)",
                    arguments: [id, (id * 7_919) % 500 * 10 + 1, "word\(id)"])
            }
            db.add(
                function: DatabaseFunction(IndexingCount.function, argumentCount: 1, pure: false) { values in
                    calls.withLock { $0.append(Int64.fromDatabaseValue(values[0]) ?? -1) }
                    return values[0]
                })
            try db.execute(sql: IndexingCount.statement("a", counted: true))
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM course_search WHERE course_search MATCH 'word1*'") == 111)
        }
        let ranks = calls.withLock { $0 }
        #expect(ranks.count == 500)
        let inOrder = zip(ranks, ranks.dropFirst()).allSatisfy { $0 < $1 }
        #expect(inOrder, "counted as the table was scanned, before the sort: \(ranks.prefix(5))…")
    }

    @Test("a failure in the middle of the writes leaves nothing of the file behind")
    func allOrNothing() async throws {
        let (database, directory) = try makeSUT()
        defer { directory.remove() }
        // The store refuses the second course after the first was written.
        try await refuseBoom(in: database)
        let before = try await snapshot(database)
        let boom = Self.newEntry.replacingOccurrences(of: #""id": "new-one""#, with: #""id": "boom""#)

        #expect(throws: CourseImportError.storage(reason: "boom refused")) {
            try database.importCourses(from: Data("[\(Self.newEntry), \(boom)]".utf8))
        }

        #expect(try await snapshot(database) == before)
    }

    @Test(
        "a bulk import that fails while its index is built beside it leaves nothing behind, no file of the index, and the next import builds one again"
    )
    func besideFailure() async throws {
        let (database, directory) = try makeSUT()
        defer { directory.remove() }
        try await refuseBoom(in: database)
        let before = try await snapshot(database)
        let courses = GeneratedCatalog.courses(count: 1_500)

        await #expect(throws: CourseImportError.storage(reason: "boom refused")) {
            try await onOwnThread { try database.importCourses(courses + [.fixture(id: "boom")], sideIndexFrom: 1) }
        }

        #expect(try await snapshot(database) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("search-index") }
        #expect(left.isEmpty, "\(left)")
        // What a killed import left a day ago goes; a file of now may be another import's.
        let stale = directory.url.appendingPathComponent(".edugo-search-index-stale.sqlite")
        let recent = directory.url.appendingPathComponent(".edugo-search-index-recent.sqlite")
        for file in [stale, recent] { try Data("x".utf8).write(to: file) }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -90_000)], ofItemAtPath: stale.path)
        let progress = ImportProgress()
        let summary = try await onOwnThread { try database.importCourses(courses, progress: progress, sideIndexFrom: 1) }
        progress.end()
        #expect(summary.added == courses.count)
        #expect(!progress.snapshot.finished.map(\.step).contains(.compacting), "built beside the writes again")
        let kept = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("search-index") }
        #expect(kept == [recent.lastPathComponent])
        try await database.writer.write { db in
            try db.execute(sql: "INSERT INTO course_search (course_search, rank) VALUES ('integrity-check', 1)")
        }
    }

    // MARK: - Helpers

    private func makeSUT() throws -> (AppDatabase, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { Self.catalog.entries })
        return (database, directory)
    }

    /// The store refuses a course with the id `boom`, after what came before it was written.
    private func refuseBoom(in database: AppDatabase) async throws {
        try await database.writer.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER refuse_boom BEFORE INSERT ON course WHEN NEW.id = 'boom'
                    BEGIN SELECT RAISE(ABORT, 'boom refused'); END
                    """)
        }
    }

    /// The database's logical content: every course and lesson, every column.
    private func snapshot(_ database: AppDatabase) async throws -> [String] {
        try await database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM course ORDER BY id").map(\.description)
                + Row.fetchAll(db, sql: "SELECT * FROM lesson ORDER BY course_id, position").map(\.description)
        }
    }
}
