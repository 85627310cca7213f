import Foundation
import SharedKernel

/// A store under contract: its five ports, and how to put courses into it (as an import
/// would). Every store seeds the demo learner (`demo@edugo.dev` / `edugo-demo`).
public struct ContractStore: Sendable {
    public var courses: any CourseRepository
    public var enrollments: any EnrollmentRepository
    public var favourites: any FavouritesRepository
    public var profiles: any ProfileRepository
    public var sessions: any SessionRepository
    public var accounts: any AccountRepository
    public var refreshTokens: any RefreshTokenRepository
    /// The store's log of changes, where the writes above are noted.
    public var changes: (any ChangeLog)?
    /// Lessons' content, answers and reviews (`ContractCase.learning`).
    public var learning: (any LearningRepository)?
    /// Queued writes applied once each (`ContractCase.operations`).
    public var operations: (any OperationRepository)?
    /// Stores courses with their lessons (`nil`: the course's single default lesson).
    public var addCourses: @Sendable ([(Course, [Lesson]?)]) async throws -> Void

    public init(
        courses: any CourseRepository,
        enrollments: any EnrollmentRepository,
        favourites: any FavouritesRepository,
        profiles: any ProfileRepository,
        sessions: any SessionRepository,
        accounts: any AccountRepository,
        refreshTokens: any RefreshTokenRepository,
        changes: (any ChangeLog)? = nil,
        learning: (any LearningRepository)? = nil,
        operations: (any OperationRepository)? = nil,
        addCourses: @escaping @Sendable ([(Course, [Lesson]?)]) async throws -> Void
    ) {
        self.courses = courses
        self.enrollments = enrollments
        self.favourites = favourites
        self.profiles = profiles
        self.sessions = sessions
        self.accounts = accounts
        self.refreshTokens = refreshTokens
        self.changes = changes
        self.learning = learning
        self.operations = operations
        self.addCourses = addCourses
    }

    /// The in-memory double, under the same contract as the real stores.
    public static func inMemory() -> ContractStore {
        let clock = SteppingClock()
        let store = InMemoryStore(courses: [], now: { clock.now() })
        return ContractStore(
            courses: store, enrollments: store, favourites: store, profiles: store, sessions: store,
            accounts: store, refreshTokens: store, changes: store, learning: store, operations: store,
            addCourses: { entries in
                for (course, lessons) in entries {
                    await store.importCourses([course])
                    if let lessons { await store.setLessons(lessons, of: course.id) }
                }
            }
        )
    }
}

/// A check that failed, with what was expected.
public struct ContractFailure: Error, CustomStringConvertible {
    public let description: String
}

/// One expectation of a port's contract, run against any store. Every store's tests run
/// every case, so no store (nor the test double) can drift from the others.
public struct ContractCase: Sendable, CustomStringConvertible {
    public let port: String
    public let name: String
    public let run: @Sendable (ContractStore) async throws -> Void

    public var description: String { "\(port): \(name)" }

    public static let all: [ContractCase] =
        courses + enrollments + favourites + profiles + sessions + accounts + refreshTokens
        + changeLog
}

// MARK: - Checks

func check(_ condition: Bool, _ message: @autoclosure () -> String, line: Int = #line) throws {
    guard condition else { throw ContractFailure(description: "line \(line): \(message())") }
}

func checkEqual<T: Equatable>(_ actual: T, _ expected: T, _ what: String = "", line: Int = #line) throws {
    guard actual == expected else {
        throw ContractFailure(description: "line \(line): \(what) expected \(expected), got \(actual)")
    }
}

func checkThrows<T>(_ expected: AppError, line: Int = #line, _ body: () async throws(AppError) -> T) async throws {
    do {
        let value = try await body()
        throw ContractFailure(description: "line \(line): expected \(expected), got \(value)")
    } catch let error as AppError {
        guard error == expected else { throw ContractFailure(description: "line \(line): expected \(expected), got \(error)") }
    }
}

// MARK: - Fixtures

enum Contract {
    static let demoPassword = "edugo-demo"

    static func demo(_ store: ContractStore) async throws -> User {
        try await store.sessions.signIn(email: "demo@edugo.dev", password: demoPassword)
    }

    static func course(
        _ id: CourseID,
        _ title: String,
        instructor: String = "María García",
        capacity: Int? = 10,
        enrolled: Int = 0,
        tags: [String] = [],
        prerequisite: CourseID? = nil,
        active: Bool = true
    ) -> Course {
        Course(
            id: id, title: title, instructor: instructor, category: "Test", level: .beginner, durationMinutes: 60,
            price: Price(minorUnits: 1000, currency: "EUR"), capacity: capacity, enrolledCount: enrolled, tags: tags,
            prerequisiteID: prerequisite, isActive: active, description: "A course for the contract."
        )
    }

    static let threeLessons = [Lesson(title: "One", minutes: 20), Lesson(title: "Two", minutes: 25), Lesson(title: "Three", minutes: 15)]

    /// Courses that differ in every value an order sorts by, tagged `tag` so a search finds
    /// them alone; added in the order given.
    static func sortable(_ made: [(id: CourseID, title: String, price: Int, minutes: Int, level: CourseLevel)], tag: String) -> [(
        Course, [Lesson]?
    )] {
        made.map { id, title, price, minutes, level in
            var course = course(id, title, tags: [tag])
            course.price = Price(minorUnits: price, currency: "EUR")
            course.durationMinutes = minutes
            course.level = level
            return (course, nil)
        }
    }
}

// MARK: - CourseRepository

extension ContractCase {
    static let courses: [ContractCase] = [
        ContractCase(port: "courses", name: "a blank query counts every course, after adding some and updating others") { store in
            let before = try await store.courses.count(matching: "")
            guard case .exactly(let start) = before else { throw ContractFailure(description: "a blank count is exact: \(before)") }
            try await store.addCourses([(Contract.course("n-1", "New One"), nil), (Contract.course("n-2", "New Two"), nil)])
            try await store.addCourses([(Contract.course("n-1", "New One, renamed"), nil), (Contract.course("n-3", "New Three"), nil)])
            try checkEqual(try await store.courses.count(matching: ""), .exactly(start + 3), "count")
        },
        ContractCase(port: "courses", name: "pages walk the catalog in title order both ways, keys rising") { store in
            let titles = ["Échecs", "beta", "Alpha", "alpha", "Gamma", "delta"]
            try await store.addCourses(titles.enumerated().map { (Contract.course(CourseID("c-\($0.offset)"), $0.element), nil) })
            let ids = Set((0..<titles.count).map { CourseID("c-\($0)") })
            let first = try await store.courses.page(matching: "", at: .first, limit: 100).filter { ids.contains($0.course.id) }
            try checkEqual(first.map(\.course.title), ["Alpha", "alpha", "beta", "delta", "Échecs", "Gamma"], "order")
            try check(zip(first, first.dropFirst()).allSatisfy { $0.key < $1.key }, "keys rise")
            let second = try await store.courses.page(matching: "", at: .after(first[1].key), limit: 2)
            try checkEqual(second.map(\.course.id), Array(first[2...3].map(\.course.id)), "after")
            let before = try await store.courses.page(matching: "", at: .before(first[4].key), limit: 2)
            try checkEqual(before.map(\.course.id), Array(first[2...3].map(\.course.id)), "before")
            let last = try await store.courses.page(matching: "", at: .last, limit: 1)
            try checkEqual(last.map(\.course.title), ["Gamma"], "last")
        },
        ContractCase(port: "courses", name: "every order pages the catalog and a search both ways, ties in title order") { store in
            let made: [(id: CourseID, title: String, price: Int, minutes: Int, level: CourseLevel)] = [
                ("o-1", "Sorted Delta", 1000, 90, .intermediate), ("o-2", "Sorted Alpha", 0, 300, .advanced),
                ("o-3", "Sorted Echo", 2500, 30, .beginner), ("o-4", "Sorted Bravo", 1000, 45, .beginner),
                ("o-5", "Sorted Charlie", 500, 90, .advanced),
            ]
            // Added in this order: o-5 is the newest.
            try await store.addCourses(Contract.sortable(made, tag: "ordercase"))
            let expected: [(CatalogSort.Field, [Int])] = [
                (.title, [2, 4, 5, 1, 3]), (.price, [2, 5, 4, 1, 3]), (.duration, [3, 4, 5, 1, 2]), (.level, [4, 3, 1, 2, 5]),
                (.newest, [5, 4, 3, 2, 1]),
            ]
            for (field, order) in expected {
                for reversed in [false, true] {
                    var query = CatalogQuery.parse("")
                    query.sort = CatalogSort(field, reversed: reversed)
                    // Reversed, ties reverse too: the whole order turned around.
                    let ids = (reversed ? order.reversed() : order).map { CourseID("o-\($0)") }
                    let what = query.sort.apiText
                    let mine = { (rows: [CatalogRow]) in rows.filter { $0.course.id.rawValue.hasPrefix("o-") } }
                    // The whole catalog, two at a time, forwards and then backwards.
                    var rows = try await store.courses.page(query, for: nil, at: .first, limit: 2)
                    var forwards = rows
                    while let last = rows.last {
                        rows = try await store.courses.page(query, for: nil, at: .after(last.key), limit: 2)
                        forwards += rows
                        try check(forwards.count <= 1_000, "\(what): pages forwards never end")
                    }
                    try checkEqual(mine(forwards).map(\.course.id), ids, "\(what) forwards")
                    try check(
                        zip(forwards, forwards.dropFirst()).allSatisfy { query.sort.descending ? $0.key > $1.key : $0.key < $1.key },
                        "\(what): keys in the order's direction")
                    rows = try await store.courses.page(query, for: nil, at: .last, limit: 3)
                    var backwards = rows
                    while let first = rows.first {
                        rows = try await store.courses.page(query, for: nil, at: .before(first.key), limit: 3)
                        backwards = rows + backwards
                        try check(backwards.count <= 1_000, "\(what): pages backwards never end")
                    }
                    try checkEqual(backwards.map(\.course.id), forwards.map(\.course.id), "\(what) backwards")
                    // A search in the order, from a key in the middle.
                    var search = CatalogQuery.parse("ordercase")
                    search.sort = query.sort
                    let found = try await store.courses.page(search, for: nil, at: .first, limit: 50)
                    try checkEqual(found.map(\.course.id), ids, "\(what) search")
                    let after = try await store.courses.page(search, for: nil, at: .after(found[1].key), limit: 2)
                    try checkEqual(after.map(\.course.id), Array(ids[2...3]), "\(what) search after")
                    let before = try await store.courses.page(search, for: nil, at: .before(found[4].key), limit: 2)
                    try checkEqual(before.map(\.course.id), Array(ids[2...3]), "\(what) search before")
                    try checkEqual(try await store.courses.count(search, for: nil), .exactly(5), "\(what) count")
                }
            }
        },
        ContractCase(port: "courses", name: "price order is free first, then by currency and amount: 49.00 EUR and 49.00 USD never tie") {
            store in
            let made: [(CourseID, String, Int, String)] = [
                ("cur-1", "Money Alpha", 4900, "USD"), ("cur-2", "Money Bravo", 4900, "EUR"), ("cur-3", "Money Charlie", 1000, "USD"),
                ("cur-4", "Money Delta", 0, "USD"), ("cur-5", "Money Echo", 9900, "GBP"), ("cur-6", "Money Foxtrot", 0, "EUR"),
                ("cur-7", "Money Golf", 500, "usd"),
            ]
            try await store.addCourses(
                made.map { id, title, price, currency in
                    var course = Contract.course(id, title, tags: ["currencycase"])
                    course.price = Price(minorUnits: price, currency: currency)
                    return (course, nil)
                })
            let order: [CourseID] = ["cur-4", "cur-6", "cur-2", "cur-5", "cur-7", "cur-3", "cur-1"]
            for reversed in [false, true] {
                var search = CatalogQuery.parse("currencycase")
                search.sort = CatalogSort(.price, reversed: reversed)
                let expected = reversed ? order.reversed() : order
                let found = try await store.courses.page(search, for: nil, at: .first, limit: 50)
                try checkEqual(found.map(\.course.id), expected, "\(search.sort.apiText)")
                try check(
                    zip(found, found.dropFirst()).allSatisfy { reversed ? $0.key > $1.key : $0.key < $1.key },
                    "\(search.sort.apiText): keys in the order's direction, no two equal")
                for row in found {
                    try checkEqual(row.key(in: search.sort), row.key, "\(row.course.id): the key a client works out is the store's")
                }
                // Two at a time both ways, across the currencies' edges.
                var rows = try await store.courses.page(search, for: nil, at: .first, limit: 2)
                var forwards = rows
                while let last = rows.last {
                    rows = try await store.courses.page(search, for: nil, at: .after(last.key), limit: 2)
                    forwards += rows
                    try check(forwards.count <= 100, "pages forwards never end")
                }
                try checkEqual(forwards.map(\.course.id), expected, "\(search.sort.apiText) two at a time")
                let before = try await store.courses.page(search, for: nil, at: .before(found[4].key), limit: 2)
                try checkEqual(before.map(\.course.id), Array(expected[2...3]), "\(search.sort.apiText) before")
            }
            var free = CatalogQuery.parse("currencycase is:free")
            free.sort = CatalogSort(.price)
            try checkEqual(
                try await store.courses.page(free, for: nil, at: .first, limit: 50).map(\.course.id), ["cur-4", "cur-6"],
                "free, any currency")
        },
        ContractCase(port: "courses", name: "a row read in one order gives its key in every other order (a list keeps its selection on s)")
        {
            store in
            let made: [(id: CourseID, title: String, price: Int, minutes: Int, level: CourseLevel)] = [
                ("k-1", "Keyed Delta", 1000, 90, .intermediate), ("k-2", "Keyed Alpha", 0, 300, .advanced),
                ("k-3", "Keyed Echo", 2500, 30, .beginner), ("k-4", "Keyed Bravo", 1000, 45, .beginner),
            ]
            try await store.addCourses(Contract.sortable(made, tag: "keyedcase"))
            let sorts = CatalogSort.Field.allCases.flatMap { [CatalogSort($0), CatalogSort($0, reversed: true)] }
            var keys: [CatalogSort: [CourseID: CatalogKey]] = [:]
            var rows: [CatalogSort: [CatalogRow]] = [:]
            for sort in sorts {
                var query = CatalogQuery.parse("keyedcase")
                query.sort = sort
                rows[sort] = try await store.courses.page(query, for: nil, at: .first, limit: 10)
                keys[sort] = Dictionary(uniqueKeysWithValues: (rows[sort] ?? []).map { ($0.course.id, $0.key) })
                try checkEqual(keys[sort]?.count, 4, "\(sort.apiText): the four courses")
            }
            for from in sorts {
                for row in rows[from] ?? [] {
                    for to in sorts {
                        try checkEqual(
                            row.key(in: to), keys[to]?[row.course.id], "\(row.course.id) read in \(from.apiText), keyed in \(to.apiText)")
                    }
                }
            }
        },
        ContractCase(port: "courses", name: "search matches word prefixes of title, instructor and tags, ignoring case and accents") {
            store in
            try await store.addCourses([
                (Contract.course("s-1", "Swift Concurrency", instructor: "José Núñez", tags: ["async"]), nil),
                (Contract.course("s-2", "Swiftly Drawing", instructor: "Ana Ruiz"), nil),
                (Contract.course("s-3", "Cooking", instructor: "Zoë Schäfer", tags: ["kitchen"]), nil),
            ])
            let ids = { (query: String) async throws -> [CourseID] in
                try await store.courses.page(matching: query, at: .first, limit: 50).map(\.course.id).filter { $0.rawValue.hasPrefix("s-") }
            }
            try checkEqual(try await ids("swi conc"), ["s-1"], "two words")
            try checkEqual(try await ids("NUNEZ"), ["s-1"], "instructor, accents")
            try checkEqual(try await ids("kitch"), ["s-3"], "tag prefix")
            try checkEqual(try await ids("swift"), ["s-1", "s-2"], "prefix")
            try checkEqual(try await ids("ift"), [], "not a prefix")
            try checkEqual(try await store.courses.page(matching: "?!", at: .first, limit: 5).count, 0, "punctuation")
            try checkEqual(try await store.courses.count(matching: "schafer"), .exactly(1), "count")
        },
        ContractCase(port: "courses", name: "letters without a decomposition fold as they are typed: soren, lukasz, yilmaz, strasse, aeble")
        { store in
            try await store.addCourses([
                (Contract.course("fold-1", "Design Systems", instructor: "Søren Lindqvist"), nil),
                (Contract.course("fold-2", "CSS Animations", instructor: "Łukasz Nowak"), nil),
                (Contract.course("fold-3", "Docker", instructor: "İlker Yılmaz"), nil),
                (Contract.course("fold-4", "Die Straße", tags: ["Æble"]), nil),
            ])
            for (query, id) in [
                ("soren", "fold-1"), ("lukasz", "fold-2"), ("yilmaz", "fold-3"), ("strasse", "fold-4"), ("aeble", "fold-4"),
                ("SØREN", "fold-1"),
            ] {
                try checkEqual(try await store.courses.page(matching: query, at: .first, limit: 10).map(\.course.id), [CourseID(id)], query)
            }
        },
        ContractCase(
            port: "courses",
            name: "filters: category prefix (several words in quotes), level, free, with words; an unknown filter filters nothing"
        ) { store in
            func course(_ id: CourseID, _ title: String, category: String, level: CourseLevel, price: Int) -> (Course, [Lesson]?) {
                var course = Contract.course(id, title)
                course.category = category
                course.level = level
                course.price = Price(minorUnits: price, currency: "EUR")
                return (course, nil)
            }
            try await store.addCourses([
                course("f-1", "Web Basics", category: "Web Development", level: .beginner, price: 0),
                course("f-2", "Web Advanced", category: "Web Development", level: .advanced, price: 1500),
                course("f-3", "Cloud Basics", category: "DevOps & Cloud", level: .beginner, price: 0),
                course("f-4", "Design Basics", category: "Design", level: .intermediate, price: 900),
            ])
            let ids = { (text: String) async throws -> [CourseID] in
                try await store.courses.page(matching: text, at: .first, limit: 50).map(\.course.id)
            }
            try checkEqual(try await ids("cat:web"), ["f-2", "f-1"], "category")
            try checkEqual(try await ids("category:devops"), ["f-3"], "category:")
            try checkEqual(try await ids("cat:dev"), ["f-3"], "prefix of the category only")
            try checkEqual(try await ids("level:beg"), ["f-3", "f-1"], "level")
            try checkEqual(try await ids("is:free"), ["f-3", "f-1"], "free")
            try checkEqual(try await ids("basics is:free level:beginner"), ["f-3", "f-1"], "combined")
            try checkEqual(try await ids("web is:free"), ["f-1"], "word and filter")
            try checkEqual(try await ids("cat:design level:int"), ["f-4"], "two filters")
            try checkEqual(try await ids("cat:\"web dev\""), ["f-2", "f-1"], "several words in quotes")
            try checkEqual(try await ids("cat:\"devops & cloud\" basics"), ["f-3"], "in quotes, with a word")
            try checkEqual(try await ids("cat:\"web design\""), [], "the words in order")
            try checkEqual(try await ids("bogus:thing basics").count, 3, "unknown filters nothing")
            try checkEqual(try await store.courses.count(matching: "cat:web"), .exactly(2), "count")
        },
        ContractCase(port: "courses", name: "the learner's filters: is:enrolled, is:favourite, is:open") { store in
            let learner = try await Contract.demo(store)
            try await store.addCourses([
                (Contract.course("o-base", "Open Base"), Contract.threeLessons),
                (Contract.course("o-next", "Open Next", prerequisite: "o-base"), nil),
                (Contract.course("o-full", "Open Full", capacity: 2, enrolled: 2), nil),
                (Contract.course("o-closed", "Open Closed", active: false), nil),
                (Contract.course("o-free", "Open Free"), nil),
            ])
            let ids = { (text: String) async throws -> [CourseID] in
                try await store.courses.page(matching: text, for: learner.id, at: .first, limit: 50).map(\.course.id).filter {
                    $0.rawValue.hasPrefix("o-")
                }
            }
            try checkEqual(try await ids("is:open"), ["o-base", "o-free"], "open before")
            _ = try await store.enrollments.enroll(userID: learner.id, courseID: "o-base")
            for lesson in 1...3 { _ = try await store.enrollments.setLesson(lesson, done: true, userID: learner.id, courseID: "o-base") }
            try await store.favourites.setFavourite(true, userID: learner.id, courseID: "o-full")
            try await store.favourites.setFavourite(true, userID: learner.id, courseID: "o-base")
            try checkEqual(try await ids("is:open"), ["o-free", "o-next"], "open after")
            try checkEqual(try await ids("is:enrolled"), ["o-base"], "enrolled")
            try checkEqual(try await ids("is:favourite"), ["o-base", "o-full"], "favourites")
            try checkEqual(try await ids("is:favourite is:enrolled"), ["o-base"], "both")
            try checkEqual(try await ids("is:favourite full"), ["o-full"], "favourite and a word")
            try checkEqual(try await store.courses.page(matching: "is:favourite", for: nil, at: .first, limit: 50).count, 0, "nobody's")
            try checkEqual(try await store.courses.count(matching: "is:enrolled", for: learner.id), .exactly(1), "count")
        },
        ContractCase(
            port: "courses", name: "a page with its count is the page and the count; counts follow courses added, renamed, closed and freed"
        ) { store in
            let learner = try await Contract.demo(store)
            try await store.addCourses([
                (Contract.course("cp-1", "Pottery Basics"), nil), (Contract.course("cp-2", "Pottery Glazes"), nil),
                (Contract.course("cp-3", "Weaving"), nil),
            ])
            for text in ["", "pottery", "pottery is:free", "is:open", "is:enrolled", "nothing-matches-this"] {
                let query = CatalogQuery.parse(text)
                for (position, limit) in [(CatalogPosition.first, 1), (.first, 50), (.last, 1)] {
                    let counted = try await store.courses.countedPage(query, for: learner.id, at: position, limit: limit)
                    try checkEqual(
                        counted.rows, try await store.courses.page(query, for: learner.id, at: position, limit: limit), "rows of \(text)")
                    try checkEqual(counted.total, try await store.courses.count(query, for: learner.id), "count of \(text)")
                }
            }
            // A store that keeps counts must let go of them when the catalog changes.
            let pottery = CatalogQuery.parse("pottery")
            try checkEqual(try await store.courses.countedPage(pottery, for: nil, at: .first, limit: 10).total, .exactly(2), "before")
            try await store.addCourses([(Contract.course("cp-4", "Pottery Wheel"), nil)])
            try checkEqual(try await store.courses.countedPage(pottery, for: nil, at: .first, limit: 10).total, .exactly(3), "added")
            try await store.addCourses([(Contract.course("cp-1", "Porcelain"), nil)])
            try checkEqual(try await store.courses.count(pottery, for: nil), .exactly(2), "renamed")
            let free = CatalogQuery.parse("weaving is:free")
            try checkEqual(try await store.courses.count(free, for: nil), .exactly(0), "not free")
            var freed = Contract.course("cp-3", "Weaving")
            freed.price = Price(minorUnits: 0, currency: "EUR")
            try await store.addCourses([(freed, nil)])
            try checkEqual(try await store.courses.count(free, for: nil), .exactly(1), "made free")
            let open = CatalogQuery.parse("weaving is:open")
            try checkEqual(try await store.courses.count(open, for: learner.id), .exactly(1), "open")
            try await store.addCourses([(Contract.course("cp-3", "Weaving", active: false), nil)])
            try checkEqual(try await store.courses.count(open, for: learner.id), .exactly(0), "closed")
        },
        ContractCase(port: "courses", name: "one course by id, with its syllabus; an unknown id is not found") { store in
            try await store.addCourses([
                (Contract.course("k-1", "Knitting"), Contract.threeLessons), (Contract.course("k-2", "Kites"), nil),
            ])
            let course = try await store.courses.course(id: "k-1")
            try checkEqual(course.lessonCount, 3, "lesson count")
            try checkEqual(try await store.courses.syllabus(of: "k-1").lessons, Contract.threeLessons, "lessons")
            try checkEqual(try await store.courses.syllabus(of: "k-2").lessons, [Lesson(title: "Kites", minutes: 60)], "default lesson")
            try await checkThrows(.courseNotFound("nope")) { () async throws(AppError) in try await store.courses.course(id: "nope") }
            try await checkThrows(.courseNotFound("nope")) { () async throws(AppError) in try await store.courses.syllabus(of: "nope") }
        },
    ]
}

// MARK: - EnrollmentRepository

extension ContractCase {
    static let enrollments: [ContractCase] = [
        ContractCase(port: "enrollments", name: "enrolling takes a seat and lists the course first; twice is refused") { store in
            let learner = try await Contract.demo(store)
            try await store.addCourses([(Contract.course("e-1", "Enamel", enrolled: 3), nil), (Contract.course("e-2", "Etching"), nil)])
            _ = try await store.enrollments.enroll(userID: learner.id, courseID: "e-2")
            let enrollment = try await store.enrollments.enroll(userID: learner.id, courseID: "e-1")
            try checkEqual(enrollment.status, .active, "status")
            try checkEqual(enrollment.lessonsDone, [], "lessons")
            try checkEqual(try await store.courses.course(id: "e-1").enrolledCount, 4, "seat")
            let mine = try await store.enrollments.enrolledCourses(userID: learner.id)
            try checkEqual(mine.map(\.id), ["e-1", "e-2"], "newest first")
            try await checkThrows(.refused(.alreadyEnrolled(title: "Enamel"))) { () async throws(AppError) in
                try await store.enrollments.enroll(userID: learner.id, courseID: "e-1")
            }
            try checkEqual(try await store.courses.course(id: "e-1").enrolledCount, 4, "no second seat")
        },
        ContractCase(port: "enrollments", name: "a full, closed or locked course is refused and nothing is written") { store in
            let learner = try await Contract.demo(store)
            try await store.addCourses([
                (Contract.course("r-full", "Rowing", capacity: 2, enrolled: 2), nil),
                (Contract.course("r-closed", "Rugby", active: false), nil),
                (Contract.course("r-base", "Running"), nil),
                (Contract.course("r-locked", "Racing", prerequisite: "r-base"), nil),
                (Contract.course("r-max", "Reading", capacity: nil, enrolled: CourseLimits.seats.upperBound), nil),
            ])
            try await checkThrows(.refused(.courseFull(title: "Rowing"))) { () async throws(AppError) in
                try await store.enrollments.enroll(userID: learner.id, courseID: "r-full")
            }
            try await checkThrows(.refused(.courseInactive(title: "Rugby"))) { () async throws(AppError) in
                try await store.enrollments.enroll(userID: learner.id, courseID: "r-closed")
            }
            try await checkThrows(.refused(.prerequisiteNotCompleted(prerequisiteTitle: "Running"))) { () async throws(AppError) in
                try await store.enrollments.enroll(userID: learner.id, courseID: "r-locked")
            }
            try await checkThrows(.refused(.courseFull(title: "Reading"))) { () async throws(AppError) in
                try await store.enrollments.enroll(userID: learner.id, courseID: "r-max")
            }
            try checkEqual(try await store.courses.course(id: "r-full").enrolledCount, 2, "full count")
            try checkEqual(try await store.courses.course(id: "r-max").enrolledCount, CourseLimits.seats.upperBound, "max count")
            try checkEqual(try await store.enrollments.enrolledCourses(userID: learner.id).count, 0, "nothing written")
            try await checkThrows(.courseNotFound("nope")) { () async throws(AppError) in
                try await store.enrollments.enroll(userID: learner.id, courseID: "nope")
            }
        },
        ContractCase(port: "enrollments", name: "a prerequisite is met by completing it, and only by that") { store in
            let learner = try await Contract.demo(store)
            try await store.addCourses([
                (Contract.course("p-base", "Painting"), Contract.threeLessons),
                (Contract.course("p-next", "Pastels", prerequisite: "p-base"), nil),
            ])
            _ = try await store.enrollments.enroll(userID: learner.id, courseID: "p-base")
            _ = try await store.enrollments.setLesson(1, done: true, userID: learner.id, courseID: "p-base")
            _ = try await store.enrollments.setLesson(2, done: true, userID: learner.id, courseID: "p-base")
            try await checkThrows(.refused(.prerequisiteNotCompleted(prerequisiteTitle: "Painting"))) { () async throws(AppError) in
                try await store.enrollments.enroll(userID: learner.id, courseID: "p-next")
            }
            _ = try await store.enrollments.setLesson(3, done: true, userID: learner.id, courseID: "p-base")
            let joined = try await store.enrollments.enroll(userID: learner.id, courseID: "p-next")
            try checkEqual(joined.courseID, "p-next", "enrolled")
        },
        ContractCase(
            port: "enrollments",
            name: "leaving frees the seat and keeps the lessons done; leaving twice is refused; joining again brings them back"
        ) { store in
            let learner = try await Contract.demo(store)
            try await store.addCourses([(Contract.course("u-1", "Ukulele", enrolled: 5), Contract.threeLessons)])
            _ = try await store.enrollments.enroll(userID: learner.id, courseID: "u-1")
            _ = try await store.enrollments.setLesson(2, done: true, userID: learner.id, courseID: "u-1")
            try await store.enrollments.unenroll(userID: learner.id, courseID: "u-1")
            try checkEqual(try await store.courses.course(id: "u-1").enrolledCount, 5, "seat freed")
            try checkEqual(try await store.enrollments.enrolledCourses(userID: learner.id).count, 0, "not listed")
            try checkEqual(try await store.enrollments.enrolledCourse(userID: learner.id, courseID: "u-1"), nil, "not read")
            try await checkThrows(.notEnrolled("u-1")) { () async throws(AppError) in
                try await store.enrollments.unenroll(userID: learner.id, courseID: "u-1")
            }
            try await checkThrows(.notEnrolled("u-1")) { () async throws(AppError) in
                try await store.enrollments.setLesson(1, done: true, userID: learner.id, courseID: "u-1")
            }
            let again = try await store.enrollments.enroll(userID: learner.id, courseID: "u-1")
            try checkEqual(again.lessonsDone, [2], "lessons back")
            try checkEqual(again.status, .active, "in progress")
            try checkEqual(try await store.courses.course(id: "u-1").enrolledCount, 6, "seat taken")
            let listed = try await store.enrollments.enrolledCourses(userID: learner.id)
            try checkEqual(listed.map(\.enrollment.lessonsDone), [[2]], "listed with them")
        },
        ContractCase(
            port: "enrollments",
            name:
                "a completion is history: a completed course left is listed as dropped, its dependant stays open, and joining again completes it"
        ) { store in
            let learner = try await Contract.demo(store)
            try await store.addCourses([
                (Contract.course("h-base", "Harp", enrolled: 2), Contract.threeLessons),
                (Contract.course("h-next", "Harmony", prerequisite: "h-base"), nil),
            ])
            _ = try await store.enrollments.enroll(userID: learner.id, courseID: "h-base")
            var completed: Enrollment?
            for lesson in 1...3 {
                completed = try await store.enrollments.setLesson(lesson, done: true, userID: learner.id, courseID: "h-base")
            }
            try await store.enrollments.unenroll(userID: learner.id, courseID: "h-base")
            let left = try await store.enrollments.enrolledCourses(userID: learner.id)
            try checkEqual(left.map(\.id), ["h-base"], "listed after leaving")
            try checkEqual(left.first?.enrollment.status, .dropped, "as dropped")
            try checkEqual(left.first?.enrollment.completedAt, completed?.completedAt, "with its date")
            try checkEqual(left.first?.enrollment.lessonsDone, [1, 2, 3], "and its lessons")
            try checkEqual(try await store.enrollments.enrolledCourse(userID: learner.id, courseID: "h-base"), left.first, "read alone")
            try checkEqual(try await store.courses.course(id: "h-base").enrolledCount, 2, "seat freed")
            let open = try await store.courses.page(matching: "is:open harmony", for: learner.id, at: .first, limit: 5)
            try checkEqual(open.map(\.course.id), ["h-next"], "the dependant is open")
            let dependant = try await store.enrollments.enroll(userID: learner.id, courseID: "h-next")
            try checkEqual(dependant.courseID, "h-next", "enrolled in the dependant")
            let back = try await store.enrollments.enroll(userID: learner.id, courseID: "h-base")
            try checkEqual(back.status, .completed, "completed again")
            try checkEqual(back.completedAt, completed?.completedAt, "the same completion")
            try checkEqual(back.lessonsDone, [1, 2, 3], "every lesson")
            let listed = try await store.enrollments.enrolledCourses(userID: learner.id)
            try checkEqual(Set(listed.map(\.id)), ["h-base", "h-next"], "both")
            try checkEqual(listed.first { $0.id == "h-base" }?.percent, 100, "percent")
        },
        ContractCase(
            port: "enrollments",
            name: "among a page's courses: only those asked about, by the whole list's rule and in its order; favourites in catalog order"
        ) { store in
            let learner = try await Contract.demo(store)
            try await store.addCourses([
                (Contract.course("m-1", "Mandolin"), Contract.threeLessons),
                (Contract.course("m-2", "Marimba"), nil),
                (Contract.course("m-3", "Maracas"), Contract.threeLessons),
                (Contract.course("m-4", "Melodica"), nil),
                (Contract.course("m-5", "Mbira"), nil),
            ])
            _ = try await store.enrollments.enroll(userID: learner.id, courseID: "m-1")
            _ = try await store.enrollments.setLesson(2, done: true, userID: learner.id, courseID: "m-1")
            _ = try await store.enrollments.enroll(userID: learner.id, courseID: "m-2")
            _ = try await store.enrollments.enroll(userID: learner.id, courseID: "m-3")
            for lesson in 1...3 { _ = try await store.enrollments.setLesson(lesson, done: true, userID: learner.id, courseID: "m-3") }
            try await store.enrollments.unenroll(userID: learner.id, courseID: "m-3")  // completed, then left: history
            _ = try await store.enrollments.enroll(userID: learner.id, courseID: "m-4")
            try await store.enrollments.unenroll(userID: learner.id, courseID: "m-4")  // left before completing: not listed

            let whole = try await store.enrollments.enrolledCourses(userID: learner.id)
            let asked: [CourseID] = ["m-4", "m-3", "m-1", "nope", "m-1", "m-5"]
            let among = try await store.enrollments.enrolledCourses(userID: learner.id, among: asked)
            try checkEqual(among, whole.filter { ["m-1", "m-3"].contains($0.id) }, "the list's rule and order, lessons and history")
            try checkEqual(among.first { $0.id == "m-1" }?.enrollment.lessonsDone, [2], "lessons done")
            try checkEqual(try await store.enrollments.enrolledCourses(userID: learner.id, among: []), [], "none asked")

            for id: CourseID in ["m-5", "m-2", "m-4"] { try await store.favourites.setFavourite(true, userID: learner.id, courseID: id) }
            let favourites = try await store.favourites.favourites(userID: learner.id, among: ["m-4", "m-1", "m-5", "nope", "m-5"])
            try checkEqual(favourites.map(\.id), ["m-5", "m-4"], "catalog order: Mbira, Melodica")
            try checkEqual(try await store.favourites.favourites(userID: learner.id, among: []), [], "none asked")
        },
        ContractCase(
            port: "enrollments", name: "a lesson of a completed course marked not done: in progress, completion kept, dependant still open"
        ) { store in
            let learner = try await Contract.demo(store)
            try await store.addCourses([
                (Contract.course("m-base", "Mosaics"), Contract.threeLessons),
                (Contract.course("m-next", "Murals", prerequisite: "m-base"), nil),
            ])
            _ = try await store.enrollments.enroll(userID: learner.id, courseID: "m-base")
            var completed: Enrollment?
            for lesson in 1...3 {
                completed = try await store.enrollments.setLesson(lesson, done: true, userID: learner.id, courseID: "m-base")
            }
            let reopened = try await store.enrollments.setLesson(3, done: false, userID: learner.id, courseID: "m-base")
            try checkEqual(reopened.status, .active, "in progress")
            try checkEqual(reopened.completedAt, completed?.completedAt, "completion kept")
            let open = try await store.courses.page(matching: "is:open murals", for: learner.id, at: .first, limit: 5)
            try checkEqual(open.map(\.course.id), ["m-next"], "the dependant is open")
            let dependant = try await store.enrollments.enroll(userID: learner.id, courseID: "m-next")
            try checkEqual(dependant.courseID, "m-next", "enrolled in the dependant")
            try await store.enrollments.unenroll(userID: learner.id, courseID: "m-base")
            let history = try await store.enrollments.enrolledCourse(userID: learner.id, courseID: "m-base")
            try checkEqual(history?.enrollment.status, .dropped, "left, listed: completed once")
            let back = try await store.enrollments.enroll(userID: learner.id, courseID: "m-base")
            try checkEqual(back.status, .active, "back in progress: lesson 3 is not done")
            try checkEqual(back.lessonsDone, [1, 2], "lessons")
            let done = try await store.enrollments.setLesson(3, done: true, userID: learner.id, courseID: "m-base")
            try checkEqual(done.status, .completed, "completed again")
            try check(done.completedAt != nil, "a completion date")
        },
        ContractCase(port: "enrollments", name: "one course's enrollment is read as the list has it; none, or an unknown course, is nil") {
            store in
            let learner = try await Contract.demo(store)
            try await store.addCourses([
                (Contract.course("g-1", "Glass"), Contract.threeLessons), (Contract.course("g-2", "Gilding"), nil),
            ])
            try checkEqual(try await store.enrollments.enrolledCourse(userID: learner.id, courseID: "g-1"), nil, "none yet")
            try checkEqual(try await store.enrollments.enrolledCourse(userID: learner.id, courseID: "nope"), nil, "unknown course")
            _ = try await store.enrollments.enroll(userID: learner.id, courseID: "g-1")
            _ = try await store.enrollments.enroll(userID: learner.id, courseID: "g-2")
            _ = try await store.enrollments.setLesson(2, done: true, userID: learner.id, courseID: "g-1")
            let listed = try await store.enrollments.enrolledCourses(userID: learner.id)
            for item in listed {
                try checkEqual(try await store.enrollments.enrolledCourse(userID: learner.id, courseID: item.id), item, "\(item.id)")
            }
            try checkEqual(
                try await store.enrollments.enrolledCourse(userID: learner.id, courseID: "g-1")?.enrollment.lessonsDone, [2], "lessons")
            // Last: a remote store acts for the learner signed in through it, now this one.
            let other = try await store.sessions.createAccount(name: "Other", email: "other-g@edugo.dev", password: "long enough")
            try checkEqual(try await store.enrollments.enrolledCourse(userID: other.id, courseID: "g-1"), nil, "another learner's")
        },
        ContractCase(
            port: "enrollments", name: "lessons: the last one done completes the course, one undone reopens it, marks are idempotent"
        ) { store in
            let learner = try await Contract.demo(store)
            try await store.addCourses([(Contract.course("l-1", "Lettering"), Contract.threeLessons)])
            try await checkThrows(.notEnrolled("l-1")) { () async throws(AppError) in
                try await store.enrollments.setLesson(1, done: true, userID: learner.id, courseID: "l-1")
            }
            _ = try await store.enrollments.enroll(userID: learner.id, courseID: "l-1")
            try await checkThrows(.noSuchLesson("l-1", 4)) { () async throws(AppError) in
                try await store.enrollments.setLesson(4, done: true, userID: learner.id, courseID: "l-1")
            }
            _ = try await store.enrollments.setLesson(1, done: true, userID: learner.id, courseID: "l-1")
            let twice = try await store.enrollments.setLesson(1, done: true, userID: learner.id, courseID: "l-1")
            try checkEqual(twice.lessonsDone, [1], "idempotent")
            _ = try await store.enrollments.setLesson(2, done: true, userID: learner.id, courseID: "l-1")
            let done = try await store.enrollments.setLesson(3, done: true, userID: learner.id, courseID: "l-1")
            try checkEqual(done.status, .completed, "completed")
            try check(done.completedAt != nil, "completion date")
            let listed = try await store.enrollments.enrolledCourses(userID: learner.id).first
            try checkEqual(listed?.percent, 100, "percent")
            try checkEqual(listed?.enrollment.status, .completed, "listed completed")
            let reopened = try await store.enrollments.setLesson(2, done: false, userID: learner.id, courseID: "l-1")
            try checkEqual(reopened.status, .active, "reopened")
            try checkEqual(reopened.completedAt, done.completedAt, "the completion kept as history")
            try checkEqual(reopened.lessonsDone, [1, 3], "lessons")
        },
    ]
}

// MARK: - FavouritesRepository

extension ContractCase {
    static let favourites: [ContractCase] = [
        ContractCase(
            port: "favourites",
            name: "one favourite read by itself: the course while it is one, nothing when not or when there is no such course"
        ) {
            store in
            let learner = try await Contract.demo(store)
            try await store.addCourses([(Contract.course("f-9", "Fishing"), nil)])
            try checkEqual(try await store.favourites.favourite(userID: learner.id, courseID: "f-9"), nil, "not yet")

            try await store.favourites.setFavourite(true, userID: learner.id, courseID: "f-9")

            try checkEqual(try await store.favourites.favourite(userID: learner.id, courseID: "f-9")?.title, "Fishing", "a favourite")
            try await store.favourites.setFavourite(false, userID: learner.id, courseID: "f-9")
            try checkEqual(try await store.favourites.favourite(userID: learner.id, courseID: "f-9"), nil, "removed")
            try checkEqual(try await store.favourites.favourite(userID: learner.id, courseID: "nope"), nil, "no such course")
        },
        ContractCase(port: "favourites", name: "setting is idempotent, listing is in catalog order, per learner") { store in
            let learner = try await Contract.demo(store)
            try await store.addCourses([(Contract.course("f-1", "Fencing"), nil), (Contract.course("f-2", "Falconry"), nil)])
            try await store.favourites.setFavourite(true, userID: learner.id, courseID: "f-1")
            try await store.favourites.setFavourite(true, userID: learner.id, courseID: "f-1")
            try await store.favourites.setFavourite(true, userID: learner.id, courseID: "f-2")
            try checkEqual(try await store.favourites.favourites(userID: learner.id).map(\.id), ["f-2", "f-1"], "listed")
            try await store.favourites.setFavourite(false, userID: learner.id, courseID: "f-1")
            try await store.favourites.setFavourite(false, userID: learner.id, courseID: "f-1")
            try checkEqual(try await store.favourites.favourites(userID: learner.id).map(\.id), ["f-2"], "removed")
            try await checkThrows(.courseNotFound("nope")) { () async throws(AppError) in
                try await store.favourites.setFavourite(true, userID: learner.id, courseID: "nope")
            }
            // Last: a remote store acts for the learner signed in through it, now this one.
            let other = try await store.sessions.createAccount(name: "Other Learner", email: "other-f@example.com", password: "password-1")
            try checkEqual(try await store.favourites.favourites(userID: other.id).count, 0, "per learner")
        },
    ]
}

// MARK: - ProfileRepository

extension ContractCase {
    static let profiles: [ContractCase] = [
        ContractCase(port: "profiles", name: "a learner is read and renamed; an unknown one is not signed in") { store in
            let learner = try await Contract.demo(store)
            try checkEqual(try await store.profiles.user(id: learner.id).email, "demo@edugo.dev", "read")
            let renamed = try await store.profiles.updateName(userID: learner.id, to: "Zoë 山田")
            try checkEqual(renamed.name, "Zoë 山田", "returned")
            try checkEqual(try await store.profiles.user(id: learner.id).name, "Zoë 山田", "stored")
            try await checkThrows(.notSignedIn) { () async throws(AppError) in try await store.profiles.user(id: UserID(987_654)) }
        }
    ]
}

// MARK: - SessionRepository

extension ContractCase {
    static let accounts: [ContractCase] = [
        ContractCase(
            port: "accounts", name: "authenticate checks the password and stores no session; a wrong email or password says the same"
        ) { store in
            try await checkThrows(.invalidCredentials) { () async throws(AppError) in
                try await store.accounts.authenticate(email: "demo@edugo.dev", password: "wrong-password")
            }
            try await checkThrows(.invalidCredentials) { () async throws(AppError) in
                try await store.accounts.authenticate(email: "nobody@edugo.dev", password: Contract.demoPassword)
            }
            let demo = try await store.accounts.authenticate(email: " demo@edugo.dev ", password: Contract.demoPassword)
            try checkEqual(demo.email, "demo@edugo.dev", "authenticated")
            try checkEqual(try await store.sessions.restoreSession(), nil, "no stored session")
        },
        ContractCase(port: "accounts", name: "register follows the account rules, signs nobody in, and the account then authenticates") {
            store in
            try await checkThrows(.invalidAccount(AccountRejection(field: .password, message: "Use a password of 8 or more characters"))) {
                () async throws(AppError) in
                try await store.accounts.register(name: "New Learner", email: "new-a@example.com", password: "short")
            }
            try await checkThrows(.emailTaken) { () async throws(AppError) in
                try await store.accounts.register(name: "New Learner", email: "Demo@edugo.dev", password: "password-1")
            }
            let created = try await store.accounts.register(name: " New Learner ", email: "new-a@example.com", password: "password-1")
            try checkEqual(created.name, "New Learner", "trimmed name")
            try checkEqual(try await store.sessions.restoreSession(), nil, "nobody signed in")
            try checkEqual(
                try await store.accounts.authenticate(email: "new-a@example.com", password: "password-1").id, created.id, "authenticates")
        },
        ContractCase(
            port: "accounts", name: "one address in any form is one account (NFC and NFD, any case); invisible characters are refused"
        ) { store in
            let nfc = "jos\u{E9}.\u{C9}lise@example.com"
            let nfd = "jose\u{301}.E\u{301}lise@example.com"
            let created = try await store.accounts.register(name: "José Élise", email: nfc, password: "password-1")
            try await checkThrows(.emailTaken) { () async throws(AppError) in
                try await store.accounts.register(name: "Other", email: nfd.uppercased(), password: "password-1")
            }
            try checkEqual(try await store.accounts.authenticate(email: nfd, password: "password-1").id, created.id, "NFD signs in")
            try checkEqual(
                try await store.accounts.authenticate(email: "JOSÉ.ÉLISE@EXAMPLE.COM", password: "password-1").id, created.id,
                "upper case signs in")
            for invisible in ["de\u{200B}mo@edugo.dev", "demo@edugo\u{202E}.dev", "demo\u{2066}@edugo.dev", "de mo@edugo.dev"] {
                try await checkThrows(.invalidAccount(AccountRejection(field: .email, message: "Enter a valid email address"))) {
                    () async throws(AppError) in
                    try await store.accounts.register(name: "Look Alike", email: invisible, password: "password-1")
                }
            }
        },
    ]

    static let refreshTokens: [ContractCase] = [
        ContractCase(port: "refreshTokens", name: "a live token rotates once; presenting it again ends its family but no other") { store in
            let demo = try await Contract.demo(store)
            let later = Date().addingTimeInterval(3600)
            try await store.refreshTokens.issue(
                RefreshTokenRecord(hash: "h1", family: "f1", userID: demo.id, expiresAt: later), now: Date())
            try await store.refreshTokens.issue(
                RefreshTokenRecord(hash: "other", family: "f2", userID: demo.id, expiresAt: later), now: Date())

            try checkEqual(
                try await store.refreshTokens.rotate("h1", to: "h2", expiresAt: later, now: Date()),
                .rotated(userID: demo.id, family: "f1"), "rotated")
            try checkEqual(try await store.refreshTokens.rotate("h1", to: "h3", expiresAt: later, now: Date()), .reused, "reused")
            try checkEqual(try await store.refreshTokens.rotate("h2", to: "h4", expiresAt: later, now: Date()), .rejected, "family ended")
            try checkEqual(
                try await store.refreshTokens.rotate("other", to: "o2", expiresAt: later, now: Date()),
                .rotated(userID: demo.id, family: "f2"), "other family")
        },
        ContractCase(port: "refreshTokens", name: "unknown, expired and revoked tokens are rejected and change nothing") { store in
            let demo = try await Contract.demo(store)
            let now = Date()
            try await store.refreshTokens.issue(
                RefreshTokenRecord(hash: "old", family: "f1", userID: demo.id, expiresAt: now.addingTimeInterval(-1)),
                now: now.addingTimeInterval(-10))
            try await store.refreshTokens.issue(
                RefreshTokenRecord(hash: "live", family: "f2", userID: demo.id, expiresAt: now.addingTimeInterval(3600)), now: now)

            try checkEqual(try await store.refreshTokens.rotate("nope", to: "x1", expiresAt: now, now: now), .rejected, "unknown")
            try checkEqual(try await store.refreshTokens.rotate("old", to: "x2", expiresAt: now, now: now), .rejected, "expired")
            try await store.refreshTokens.revoke(family: "f2")
            try await store.refreshTokens.revoke(family: "f2")
            try checkEqual(try await store.refreshTokens.rotate("live", to: "x3", expiresAt: now, now: now), .rejected, "revoked")
        },
        ContractCase(
            port: "refreshTokens",
            name: "a sign-in is live while a live token of it is stored: rotated yes; ended, expired or another learner's no"
        ) { store in
            let demo = try await Contract.demo(store)
            let other = try await store.accounts.register(name: "Other Learner", email: "live-other@example.com", password: "password-1")
            let now = Date()
            let later = now.addingTimeInterval(3600)
            try await store.refreshTokens.issue(RefreshTokenRecord(hash: "a1", family: "fa", userID: demo.id, expiresAt: later), now: now)
            try await store.refreshTokens.issue(RefreshTokenRecord(hash: "b1", family: "fb", userID: demo.id, expiresAt: later), now: now)
            try await store.refreshTokens.issue(
                RefreshTokenRecord(hash: "c1", family: "fc", userID: demo.id, expiresAt: now.addingTimeInterval(60)), now: now)

            try checkEqual(try await store.refreshTokens.isLive(family: "fa", userID: demo.id, now: now), true, "new")
            _ = try await store.refreshTokens.rotate("a1", to: "a2", expiresAt: later, now: now)
            try checkEqual(try await store.refreshTokens.isLive(family: "fa", userID: demo.id, now: now), true, "rotated")
            try checkEqual(try await store.refreshTokens.isLive(family: "fa", userID: other.id, now: now), false, "another learner's")
            try await store.refreshTokens.revoke(family: "fb")
            try checkEqual(try await store.refreshTokens.isLive(family: "fb", userID: demo.id, now: now), false, "ended")
            try checkEqual(
                try await store.refreshTokens.isLive(family: "fc", userID: demo.id, now: now.addingTimeInterval(120)), false, "expired")
            try checkEqual(try await store.refreshTokens.isLive(family: "nope", userID: demo.id, now: now), false, "unknown")
        },
    ]

    static let sessions: [ContractCase] = [
        ContractCase(port: "sessions", name: "signing in stores the session for the next start; a wrong email or password says the same") {
            store in
            try await checkThrows(.invalidCredentials) { () async throws(AppError) in
                try await store.sessions.signIn(email: "demo@edugo.dev", password: "wrong-password")
            }
            try await checkThrows(.invalidCredentials) { () async throws(AppError) in
                try await store.sessions.signIn(email: "nobody@edugo.dev", password: Contract.demoPassword)
            }
            let learner = try await Contract.demo(store)
            try checkEqual(try await store.sessions.restoreSession()?.id, learner.id, "restored")
            try await store.sessions.signOut(userID: learner.id)
            try checkEqual(try await store.sessions.restoreSession(), nil, "signed out")
        },
        ContractCase(port: "sessions", name: "an account is created by the account rules, naming the field at fault") { store in
            try await checkThrows(.invalidAccount(AccountRejection(field: .name, message: "Enter a name"))) { () async throws(AppError) in
                try await store.sessions.createAccount(name: "  ", email: "new@example.com", password: "password-1")
            }
            try await checkThrows(.invalidAccount(AccountRejection(field: .email, message: "Enter a valid email address"))) {
                () async throws(AppError) in
                try await store.sessions.createAccount(name: "New Learner", email: "new@", password: "password-1")
            }
            try await checkThrows(.invalidAccount(AccountRejection(field: .password, message: "Use a password of 8 or more characters"))) {
                () async throws(AppError) in
                try await store.sessions.createAccount(name: "New Learner", email: "new@example.com", password: "short")
            }
            try await checkThrows(.emailTaken) { () async throws(AppError) in
                try await store.sessions.createAccount(name: "New Learner", email: "DEMO@edugo.dev", password: "password-1")
            }
            let created = try await store.sessions.createAccount(name: " New Learner ", email: " new@example.com", password: "password-1")
            try checkEqual(created.name, "New Learner", "trimmed name")
            try checkEqual(try await store.sessions.restoreSession()?.id, created.id, "signed in")
            try checkEqual(try await store.sessions.signIn(email: "new@example.com", password: "password-1").id, created.id, "signs in")
        },
        ContractCase(port: "sessions", name: "signing out a learner who is no longer the stored one leaves the stored one") { store in
            let demo = try await Contract.demo(store)
            let other = try await store.sessions.createAccount(name: "Other Learner", email: "other-s@example.com", password: "password-1")
            try await store.sessions.signOut(userID: demo.id)
            try checkEqual(try await store.sessions.restoreSession()?.id, other.id, "kept")
        },
    ]
}
