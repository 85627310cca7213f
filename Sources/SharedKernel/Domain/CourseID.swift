/// The stable identifier of a course, as written in the course JSON (`"swift-concurrency"`).
public struct CourseID: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }

    public static func < (lhs: CourseID, rhs: CourseID) -> Bool { lhs.rawValue < rhs.rawValue }
}
