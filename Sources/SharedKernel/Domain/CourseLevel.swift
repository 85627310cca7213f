/// How much a learner is expected to know before starting a course.
public enum CourseLevel: String, CaseIterable, Hashable, Sendable {
    case beginner
    case intermediate
    case advanced

    /// The level as shown to a learner.
    public var displayName: String {
        switch self {
        case .beginner: "Beginner"
        case .intermediate: "Intermediate"
        case .advanced: "Advanced"
        }
    }

    /// The level in three letters, where a table has no room for the name.
    public var shortName: String {
        switch self {
        case .beginner: "Beg"
        case .intermediate: "Int"
        case .advanced: "Adv"
        }
    }
}
