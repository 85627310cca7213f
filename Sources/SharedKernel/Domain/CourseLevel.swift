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
}
