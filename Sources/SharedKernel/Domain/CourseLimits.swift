import Foundation

/// SPEC's ranges for the numbers and identifiers of a course: what an import accepts, what a
/// store reads back as sane, and what the arithmetic on counts never leaves.
public enum CourseLimits {
    /// A price, in major units (`35.99`).
    public static let price: ClosedRange<Double> = 0...1_000_000
    /// A course's or a lesson's minutes.
    public static let minutes: ClosedRange<Int> = 1...100_000
    /// Capacity, and the seats a course without one can hold.
    public static let seats: ClosedRange<Int> = 1...10_000_000
    /// Lessons in a syllabus.
    public static let lessons: ClosedRange<Int> = 1...200
    /// The length of an id.
    public static let idLength: ClosedRange<Int> = 1...64
    /// Course ids one ask for a learner's marks may name: a page of at most 100 courses and
    /// their prerequisites.
    public static let idsPerAsk = 200
    /// Tags of one course.
    public static let tagsPerCourse = 20
    /// Characters of one tag, counted as Unicode scalars (as JSON Schema's `maxLength` counts
    /// them), so `e` with a combining accent is two.
    public static let tagLength = 40
    /// A course's JSON apart from its lessons' bodies (64 KiB): its fields, its lessons'
    /// titles and their questions, as `jsonBytes(of:)` counts them. Bodies have their own
    /// limit (`ContentLimits.bodyBytes`) and travel one lesson at a time.
    public static let jsonBytes = 65_536
    /// The most any answer of the API may hold: the terminal's cap on a body (4 MiB).
    public static let answerBytes = 4 << 20
    /// What the courses of one catalog page may take: a server stops adding courses to a page
    /// before they pass it, well under `answerBytes` (a page of 100 courses is about 60 KB;
    /// 100 of the largest allowed, 6.4 MB).
    public static let pageBytes = 3 << 20

    /// Ids appear in the API's paths: ASCII letters, digits, `.`, `_` and `-` only.
    public static func isValidID(_ id: String) -> Bool {
        idLength.contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
    }

    /// Whether a course read back from a store is within these ranges: a row that is not
    /// (written by another program, or by an older version) is refused, never trusted.
    public static func problem(in course: Course) -> String? {
        if !isValidID(course.id.rawValue) { return "id \(course.id.rawValue.debugDescription) is not a valid id" }
        if !minutes.contains(course.durationMinutes) { return "duration_minutes \(course.durationMinutes) is out of range" }
        if course.price.minorUnits < 0 || Double(course.price.minorUnits) > price.upperBound * 100 {
            return "price \(course.price.minorUnits) is out of range"
        }
        if let capacity = course.capacity, !seats.contains(capacity) { return "capacity \(capacity) is out of range" }
        if course.enrolledCount < 0 || course.enrolledCount > seats.upperBound {
            return "enrolled_count \(course.enrolledCount) is out of range"
        }
        if !lessons.contains(course.lessonCount) { return "lesson_count \(course.lessonCount) is out of range" }
        if !isValidCurrency(course.price.currency) { return "currency \(course.price.currency.debugDescription) is not 3 letters" }
        if let prerequisite = course.prerequisiteID, !isValidID(prerequisite.rawValue) {
            return "prerequisite_id \(prerequisite.rawValue.debugDescription) is not a valid id"
        }
        if let problem = tagProblem(in: course.tags) { return problem.field + " " + problem.reason.english }
        // Only a course whose texts are long enough to come near the limit is measured.
        if CourseJSONBytes.bound(course) > jsonBytes, case let bytes = CourseJSONBytes.of(course), bytes > jsonBytes {
            return "the course is \(bytes) bytes of JSON, past \(jsonBytes)"
        }
        return nil
    }

    /// What is wrong with a course's tags, if anything: more than `tagsPerCourse`, or one longer than
    /// `tagLength` characters. The field is `tags` or `tags[i]`, from 0.
    public static func tagProblem(in tags: [String]) -> (field: String, reason: LocalizedText)? {
        if tags.count > tagsPerCourse { return ("tags", "must hold at most \(tagsPerCourse) tags") }
        // A tag of at most `tagLength` bytes has at most as many scalars: counted only past it.
        if let index = tags.firstIndex(where: { $0.utf8.count > tagLength && $0.unicodeScalars.count > tagLength }) {
            return ("tags[\(index)]", "must be at most \(tagLength) characters")
        }
        return nil
    }

    /// Bytes of the course as compact JSON (`jsonBytes` bounds it).
    public static func jsonBytes(of course: Course) -> Int {
        CourseJSONBytes.of(course)
    }

    /// Bytes of the course with its syllabus as compact JSON, the lessons' bodies apart: the
    /// titles and minutes of the lessons, and their questions when they hold them.
    public static func jsonBytes(of syllabus: Syllabus) -> Int {
        CourseJSONBytes.of(syllabus)
    }

    /// A course past `jsonBytes`, told as an import tells a field: the field that takes the
    /// most of it (`description`, `tags`, `lessons`, …), so the file's author knows where to cut.
    public static func sizeProblem(in syllabus: Syllabus) -> (field: String, reason: LocalizedText)? {
        let bytes = CourseJSONBytes.of(syllabus)
        guard bytes > jsonBytes else { return nil }
        let course = syllabus.course
        let parts = [
            ("description", CourseJSONBytes.text(course.description)), ("title", CourseJSONBytes.text(course.title)),
            ("instructor", CourseJSONBytes.text(course.instructor)), ("category", CourseJSONBytes.text(course.category ?? "")),
            ("tags", course.tags.reduce(0) { $0 + CourseJSONBytes.text($1) }), ("lessons", bytes - CourseJSONBytes.of(course)),
        ]
        let field = parts.max { $0.1 < $1.1 }?.0 ?? "description"
        return (
            field,
            "makes the course \(bytes) bytes of JSON apart from its lessons' bodies, past the \(jsonBytes) (64 KiB) a course may take"
        )
    }

    /// Whether a price in major units can be a course's: a finite number within `price`.
    /// Asked before the price becomes cents, so no number, however large, can trap on the way.
    public static func isValidPrice(_ major: Double) -> Bool {
        major.isFinite && price.contains(major)
    }

    /// A required text (a title, an instructor, a lesson's title) says something once control
    /// characters, format characters and whole escape sequences are removed: `"\u{1B}[2J"`
    /// would be a blank row.
    public static func saysSomething(_ text: String) -> Bool {
        let shown = PrintableText.sanitize(text)
        // Nearly every text has a visible ASCII character, never a space: Foundation's trimming
        // was 8 % of importing a file of 200,000 courses.
        if shown.utf8.contains(where: { $0 > 0x20 && $0 < 0x7F }) { return true }
        return !shown.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    /// What is wrong with a course's required texts, if anything (`saysSomething`).
    public static func textProblem(in course: Course) -> String? {
        if !saysSomething(course.title) { return "title says nothing once control characters are removed" }
        if !saysSomething(course.instructor) { return "instructor says nothing once control characters are removed" }
        return nil
    }

    /// A currency code: three ASCII letters.
    public static func isValidCurrency(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// Whether a lesson is within these ranges (its minutes), as `problem(in:)` for a course.
    public static func problem(in lesson: Lesson) -> String? {
        minutes.contains(lesson.minutes) ? nil : "minutes \(lesson.minutes) is out of range"
    }

    /// Whether a course with its syllabus is within these ranges: the course, 1 to 200
    /// lessons, and each lesson (named by its place, from 0 as in the course JSON).
    public static func problem(in syllabus: Syllabus) -> String? {
        if let problem = problem(in: syllabus.course) { return problem }
        if !lessons.contains(syllabus.lessons.count) {
            return "lessons: \(syllabus.lessons.count) is not 1 to \(lessons.upperBound) lessons"
        }
        for (index, lesson) in syllabus.lessons.enumerated() {
            if let problem = problem(in: lesson) { return "lessons[\(index)].\(problem)" }
        }
        let bytes = jsonBytes(of: syllabus)
        if bytes > jsonBytes { return "the course with its lessons is \(bytes) bytes of JSON, past \(jsonBytes)" }
        return nil
    }
}
