import Foundation
import SharedKernel
import TestSupport
import Testing

@Suite("Enrollment rules")
struct EnrollmentRulesTests {
    static let prerequisite = Course.fixture(id: "base", title: "Base")

    @Test(
        "refusals in their order: enrolled, closed, full, prerequisite",
        arguments: [
            (Course.fixture(), nil, nil, nil),
            (.fixture(), Enrollment.fixture(), nil, EnrollmentRefusal.alreadyEnrolled(title: "Swift 101")),
            (.fixture(), .fixture(status: .completed), nil, .alreadyEnrolled(title: "Swift 101")),
            (.fixture(), .fixture(status: .dropped), nil, nil),
            (.fixture(capacity: 10, enrolledCount: 10, isActive: false), nil, nil, .courseInactive(title: "Swift 101")),
            (.fixture(capacity: 10, enrolledCount: 10), nil, nil, .courseFull(title: "Swift 101")),
            (.fixture(capacity: nil, enrolledCount: CourseLimits.seats.upperBound), nil, nil, .courseFull(title: "Swift 101")),
            (.fixture(prerequisiteID: "base"), nil, false, .prerequisiteNotCompleted(prerequisiteTitle: "Base")),
            (.fixture(prerequisiteID: "base"), nil, true, nil),
        ] as [(Course, Enrollment?, Bool?, EnrollmentRefusal?)])
    func refusal(course: Course, existing: Enrollment?, prerequisiteCompleted: Bool?, expected: EnrollmentRefusal?) {
        let prerequisite = prerequisiteCompleted.map { (course: Self.prerequisite, completed: $0) }

        #expect(EnrollmentRules.refusal(for: course, existing: existing, prerequisite: prerequisite) == expected)
    }

    @Test(
        "the word a catalog row shows for a course the learner cannot join",
        arguments: [
            (Course.fixture(), CourseMarks(), nil),
            (.fixture(isActive: false), CourseMarks(), EnrollmentBlock.closed),
            (.fixture(capacity: 5, enrolledCount: 5), CourseMarks(), .full),
            (.fixture(prerequisiteID: "base"), CourseMarks(prerequisiteMet: false), .locked),
            (.fixture(capacity: 5, enrolledCount: 5), CourseMarks(enrollment: .fixture()), nil),
        ] as [(Course, CourseMarks, EnrollmentBlock?)])
    func block(course: Course, marks: CourseMarks, expected: EnrollmentBlock?) {
        #expect(EnrollmentRules.block(for: course, marks: marks) == expected)
    }
}

@Suite("Lesson rules")
struct LessonRulesTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static let earlier = Date(timeIntervalSince1970: 1_790_000_000)

    @Test(
        "marking and unmarking lessons: the last done completes (again: a new date); one undone is in progress, the completion kept",
        arguments: [
            (Enrollment.fixture(), 1, true, 3, Set([1]), EnrollmentStatus.active, nil),
            (.fixture(lessonsDone: [1, 2]), 3, true, 3, [1, 2, 3], .completed, now),
            (.fixture(lessonsDone: [1]), 1, true, 1, [1], .completed, now),
            (.fixture(status: .completed, lessonsDone: [1, 2, 3], completedAt: earlier), 2, false, 3, [1, 3], .active, earlier),
            (.fixture(status: .active, lessonsDone: [1, 3], completedAt: earlier), 2, true, 3, [1, 2, 3], .completed, now),
            (.fixture(status: .completed, lessonsDone: [1, 2, 3], completedAt: earlier), 2, true, 3, [1, 2, 3], .completed, earlier),
            (.fixture(lessonsDone: [1]), 1, true, 3, [1], .active, nil),
            (.fixture(lessonsDone: [2]), 1, false, 3, [2], .active, nil),
            // Numbers past a syllabus that shrank do not count towards it.
            (.fixture(lessonsDone: [4, 5]), 1, true, 3, [1, 4, 5], .active, nil),
        ] as [(Enrollment, Int, Bool, Int, Set<Int>, EnrollmentStatus, Date?)])
    func mark(
        enrollment: Enrollment, number: Int, done: Bool, lessons: Int, expectedDone: Set<Int>, status: EnrollmentStatus, completedAt: Date?
    ) throws {
        let marked = try LessonRules.mark(number, done: done, in: enrollment, lessonCount: lessons, now: Self.now).get()

        #expect(marked.lessonsDone == expectedDone)
        #expect(marked.status == status)
        #expect(marked.completedAt == completedAt)
    }

    @Test("marking needs an enrollment that holds a place, and a lesson that exists")
    func refusals() {
        #expect(LessonRules.mark(1, done: true, in: nil, lessonCount: 3, now: Self.now) == .failure(.notEnrolled))
        #expect(LessonRules.mark(1, done: true, in: .fixture(status: .dropped), lessonCount: 3, now: Self.now) == .failure(.notEnrolled))
        #expect(LessonRules.mark(4, done: true, in: .fixture(), lessonCount: 3, now: Self.now) == .failure(.noSuchLesson(4)))
        #expect(LessonRules.mark(0, done: true, in: .fixture(), lessonCount: 3, now: Self.now) == .failure(.noSuchLesson(0)))
    }

    @Test(
        "a prerequisite is met by a course completed once, whatever its status now",
        arguments: [
            (nil, false), (Enrollment.fixture(), false), (.fixture(lessonsDone: [1, 2]), false),
            (.fixture(status: .completed, completedAt: now), true), (.fixture(status: .dropped), false),
            (.fixture(status: .dropped, lessonsDone: [1], completedAt: now), true),
            (.fixture(status: .active, lessonsDone: [1], completedAt: now), true),
        ] as [(Enrollment?, Bool)])
    func prerequisite(enrollment: Enrollment?, met: Bool) {
        #expect(LessonRules.meetsPrerequisite(enrollment) == met)
    }

    @Test(
        "leaving keeps the lessons and the completion; it only drops the place",
        arguments: [
            Enrollment.fixture(), .fixture(lessonsDone: [1, 2]),
            .fixture(status: .completed, lessonsDone: [1, 2, 3], completedAt: earlier),
            .fixture(status: .active, lessonsDone: [1], completedAt: earlier),
        ])
    func leave(enrollment: Enrollment) {
        let left = LessonRules.leave(enrollment)

        #expect(left.status == .dropped)
        #expect(left.lessonsDone == enrollment.lessonsDone)
        #expect(left.completedAt == enrollment.completedAt)
        #expect(left.enrolledAt == enrollment.enrolledAt)
    }

    @Test(
        "joining again: the lessons back; completed if it was and every lesson is still done, else in progress",
        arguments: [
            (Enrollment.fixture(status: .dropped), 3, EnrollmentStatus.active),
            (.fixture(status: .dropped, lessonsDone: [1, 2]), 3, .active),
            (.fixture(status: .dropped, lessonsDone: [1, 2, 3], completedAt: earlier), 3, .completed),
            (.fixture(status: .dropped, lessonsDone: [1, 2, 3], completedAt: earlier), 4, .active),
            (.fixture(status: .dropped, lessonsDone: [1, 2], completedAt: earlier), 3, .active),
            (.fixture(status: .dropped, lessonsDone: [1, 2, 3, 4], completedAt: earlier), 3, .completed),
            (.fixture(status: .dropped, lessonsDone: [1, 2]), 2, .active),
        ] as [(Enrollment, Int, EnrollmentStatus)])
    func rejoin(enrollment: Enrollment, lessons: Int, status: EnrollmentStatus) {
        let back = LessonRules.rejoin(enrollment, lessonCount: lessons, at: Self.now)

        #expect(back.status == status)
        #expect(back.lessonsDone == enrollment.lessonsDone)
        #expect(back.completedAt == enrollment.completedAt)
        #expect(back.enrolledAt == Self.now)
    }

    @Test(
        "progress is lessons done ÷ lessons, rounded down, 100 only when all are done",
        arguments: [
            (0, 8, 0), (3, 8, 37), (7, 8, 87), (8, 8, 100), (1, 3, 33), (2, 3, 66), (0, 0, 0),
        ])
    func percent(done: Int, total: Int, expected: Int) {
        #expect(LessonRules.percent(done: done, of: total) == expected)
    }
}

@Suite("Account rules")
struct AccountRulesTests {
    @Test(
        "the first field at fault, in form order",
        arguments: [
            ("Ana", "ana@example.com", "password-1", nil),
            ("", "x", "y", AccountField.name),
            ("Ana", "ana@example", "password-1", .email),
            ("Ana", "ana example@x.com", "password-1", .email),
            ("Ana", "@example.com", "password-1", .email),
            ("Ana", "ana@example.com", "1234567", .password),
            // Issue 22: addresses that look like another's.
            ("Ana", "de\u{200B}mo@edugo.dev", "password-1", .email),
            ("Ana", "demo@edugo\u{202E}.dev", "password-1", .email),
            ("Ana", "\u{2066}demo@edugo.dev", "password-1", .email),
            ("Ana", "demo@edugo.dev\u{FEFF}", "password-1", .email),
            ("Ana", "demo\u{00A0}x@edugo.dev", "password-1", .email),
            ("Ana", "demo@edugo.d\u{E000}v", "password-1", .email),
            // A name of one letter and 5,000 marks is one character, but not a name.
            ("e" + String(repeating: "\u{301}", count: 5_000), "ana@example.com", "password-1", .name),
        ] as [(String, String, String, AccountField?)])
    func validate(name: String, email: String, password: String, field: AccountField?) {
        switch AccountRules.validate(name: name, email: email, password: password) {
        case .success: #expect(field == nil)
        case .failure(let rejection): #expect(rejection.field == field)
        }
    }

    @Test(
        "one key for every form of an address: case, NFC and NFD, spaces around it",
        arguments: [
            ("Demo@EduGo.dev", "demo@edugo.dev"),
            (" demo@edugo.dev ", "demo@edugo.dev"),
            ("jose\u{301}@example.com", "jos\u{E9}@example.com"),
            ("JOS\u{C9}@EXAMPLE.COM", "jos\u{E9}@example.com"),
            ("\u{130}stanbul@example.com", "i\u{307}stanbul@example.com"),
        ])
    func emailKey(email: String, key: String) {
        #expect(AccountRules.emailKey(email).unicodeScalars.elementsEqual(key.unicodeScalars))
    }

    @Test("the email stored is the NFC form of what was typed")
    func storedEmail() {
        #expect(
            AccountRules.normalizedEmail(" jose\u{301}@example.com")?.unicodeScalars.elementsEqual("jos\u{E9}@example.com".unicodeScalars)
                == true)
    }
}

@Suite("Course limits")
struct CourseLimitsTests {
    @Test(
        "ids are 1–64 characters of A–Z a–z 0–9 . _ -",
        arguments: [
            ("swift-101", true), ("a.b_c-D9", true), ("", false), (String(repeating: "a", count: 65), false),
            ("a b", false), ("agile-scrum\u{0}evil", false), ("é", false), ("a/b", false),
        ])
    func ids(id: String, valid: Bool) {
        #expect(CourseLimits.isValidID(id) == valid)
    }

    @Test("a stored course out of range is named for what is wrong")
    func problems() {
        #expect(CourseLimits.problem(in: .fixture()) == nil)
        #expect(CourseLimits.problem(in: .fixture(enrolledCount: 10_000_001))?.contains("enrolled_count") == true)
        #expect(CourseLimits.problem(in: .fixture(capacity: 0))?.contains("capacity") == true)
        #expect(CourseLimits.problem(in: .fixture(durationMinutes: 0))?.contains("duration_minutes") == true)
    }
}

/// The in-memory double holds every port's contract, as the real stores do.
@Suite("Port contracts: in memory")
struct InMemoryContractTests {
    @Test("in-memory store", arguments: ContractCase.all + ContractCase.learning + ContractCase.operations)
    func contract(_ contract: ContractCase) async throws {
        try await contract.run(.inMemory())
    }
}
