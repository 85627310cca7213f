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

    /// Ids appear in the API's paths: ASCII letters, digits, `.`, `_` and `-` only.
    public static func isValidID(_ id: String) -> Bool {
        idLength.contains(id.utf8.count) && id.utf8.allSatisfy { byte in
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
        return nil
    }
}
