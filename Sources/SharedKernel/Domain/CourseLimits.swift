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
        return nil
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
        !PrintableText.sanitize(text).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
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
        return nil
    }
}
