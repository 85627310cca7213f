import SharedKernel
import TestSupport
import Testing

/// Issue 22: numbers a store hands the app may be anything an `Int` holds (a hostile server's
/// above all). The arithmetic the app does on them holds at the ends of `Int` and never traps;
/// what it shows is never negative nonsense; and `CourseLimits` names what is out of range.
@Suite("Untrusted numbers")
struct UntrustedNumbersTests {
    @Test(
        "seats left never traps and is never negative",
        arguments: [
            (Int.max, Int.min, Int.max),
            (Int.min, 5, 0),
            (Int.min, Int.max, 0),
            (Int.max, Int.max, 0),
            (10, -5, 10),
            (40, 12, 28),
        ] as [(Int, Int, Int)])
    func seatsLeft(capacity: Int, enrolled: Int, expected: Int) {
        let course = Course.fixture(capacity: capacity, enrolledCount: enrolled)

        #expect(course.seatsLeft == expected)
    }

    @Test(
        "a negative length reads 0min, never -1h -40min; the largest reads without a trap",
        arguments: [
            (-100, "0min"), (Int.min, "0min"), (0, "0min"), (Int.max, "153722867280912930h 7min"),
        ])
    func duration(minutes: Int, expected: String) {
        #expect(DurationText.format(minutes: minutes).english == expected)
    }

    @Test(
        "a negative price reads as one, and the smallest Int does not trap",
        arguments: [
            (-150, "-1.50 EUR"), (-5, "-0.05 EUR"), (Int.min, "-92233720368547758.08 EUR"), (Int.max, "92233720368547758.07 EUR"),
        ])
    func price(minorUnits: Int, expected: String) {
        #expect(Texts.english("\(Price(minorUnits: minorUnits, currency: "EUR"))") == expected)
    }

    @Test(
        "progress of the largest counts never traps and stays within 0…100",
        arguments: [
            (Int.max, Int.max, 100), (Int.max / 2, Int.max, 49), (Int.max, 3, 100), (-5, 3, 0), (Int.min, Int.max, 0), (3, -1, 0),
        ])
    func percent(done: Int, total: Int, expected: Int) {
        #expect(LessonRules.percent(done: done, of: total) == expected)
    }

    @Test(
        "a syllabus's minutes add up without a trap: the sum holds at Int.max, a negative lesson counts as none",
        arguments: [
            ([1 << 62, 1 << 62], Int.max),
            ([Int.max, Int.max, Int.max], Int.max),
            ([40, 50, 60], 150),
            ([40, -1_000, 60], 100),
            ([Int.min, 30], 30),
        ] as [([Int], Int)])
    func totalMinutes(minutes: [Int], expected: Int) {
        let syllabus = Syllabus(course: .fixture(), lessons: minutes.map { Lesson(title: "L", minutes: $0) })

        #expect(syllabus.totalMinutes == expected)
    }

    @Test(
        "saturating sums and differences hold at the ends of Int",
        arguments: [
            (Int.max, 1, Int.max, Int.max - 1),
            (Int.min, -1, Int.min, Int.min + 1),
            (Int.min, 1, Int.min + 1, Int.min),
            (Int.max, -1, Int.max - 1, Int.max),
            (2, 3, 5, -1),
        ] as [(Int, Int, Int, Int)])
    func saturating(a: Int, b: Int, sum: Int, difference: Int) {
        #expect(Saturating.add(a, b) == sum)
        #expect(Saturating.subtract(a, b) == difference)
    }
}

@Suite("Course limits on untrusted courses")
struct UntrustedCourseLimitsTests {
    @Test(
        "a price is valid only if finite and within 0…1,000,000, checked before it becomes cents",
        arguments: [
            (1e300, false), (1e17, false), (-1, false), (-0.01, false), (.nan, false), (.infinity, false), (-.infinity, false),
            (1_000_000.01, false), (0, true), (35.99, true), (1_000_000, true),
        ] as [(Double, Bool)])
    func price(major: Double, valid: Bool) {
        #expect(CourseLimits.isValidPrice(major) == valid)
    }

    @Test(
        "a course out of range names the field at fault",
        arguments: [
            (Course.fixture(capacity: .max, enrolledCount: .min), "capacity"),
            (.fixture(capacity: 10, enrolledCount: .min), "enrolled_count"),
            (.fixture(capacity: .max), "capacity"),
            (.fixture(durationMinutes: -100), "duration_minutes"),
            (.fixture(durationMinutes: 1 << 62), "duration_minutes"),
            (.fixture(price: Price(minorUnits: -1, currency: "EUR")), "price"),
            (.fixture(price: Price(minorUnits: .max, currency: "EUR")), "price"),
            (.fixture(price: Price(minorUnits: 100, currency: "\u{1B}[2J")), "currency"),
            (.fixture(price: Price(minorUnits: 100, currency: "EURO")), "currency"),
            (.fixture(prerequisiteID: "../../admin"), "prerequisite_id"),
            (.fixture(lessonCount: 0), "lesson_count"),
            (.fixture(lessonCount: 201), "lesson_count"),
            (.fixture(lessonCount: .max), "lesson_count"),
            (.fixture(tags: Array(repeating: "t", count: 21)), "tags"),
            (.fixture(tags: ["ok", String(repeating: "t", count: 41)]), "tags[1]"),
            (.fixture(description: String(repeating: "d", count: 66_000)), "the course"),
            // Control characters are written as `\u00XX`: 11,000 of them take 66,000 bytes.
            (.fixture(description: String(repeating: "\u{1}", count: 11_000)), "the course"),
        ] as [(Course, String)])
    func course(course: Course, field: String) {
        #expect(CourseLimits.problem(in: course)?.hasPrefix(field) == true)
    }

    @Test(
        "a syllabus holds 1 to 200 lessons of 1 to 100,000 minutes each",
        arguments: [
            ([150], nil),
            (Array(repeating: 1, count: 200), nil),
            ([], "lessons"),
            (Array(repeating: 1, count: 201), "lessons"),
            ([40, 1 << 62], "lessons[1].minutes"),
            ([0], "lessons[0].minutes"),
            ([-40], "lessons[0].minutes"),
            ([100_001], "lessons[0].minutes"),
        ] as [([Int], String?)])
    func syllabus(minutes: [Int], field: String?) {
        let syllabus = Syllabus(course: .fixture(), lessons: minutes.map { Lesson(title: "L", minutes: $0) })

        let problem = CourseLimits.problem(in: syllabus)

        if let field { #expect(problem?.hasPrefix(field) == true, "\(problem ?? "no problem")") } else { #expect(problem == nil) }
    }

    @Test("a syllabus whose lessons' titles take the course past 64 KiB of JSON is out of range; 64 KiB is not")
    func syllabusSize() {
        func syllabus(titleLength: Int) -> Syllabus {
            Syllabus(
                course: .fixture(),
                lessons: Array(repeating: Lesson(title: String(repeating: "t", count: titleLength), minutes: 5), count: 200))
        }
        let largest = (1...400).last { CourseLimits.jsonBytes(of: syllabus(titleLength: $0)) <= CourseLimits.jsonBytes } ?? 0

        #expect(CourseLimits.problem(in: syllabus(titleLength: largest)) == nil)
        #expect(CourseLimits.problem(in: syllabus(titleLength: largest + 1))?.hasPrefix("the course with its lessons is") == true)
    }
}
