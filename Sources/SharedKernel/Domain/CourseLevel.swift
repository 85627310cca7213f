/// How much a learner is expected to know before starting a course.
public enum CourseLevel: String, CaseIterable, Hashable, Sendable {
    case beginner
    case intermediate
    case advanced

    /// The level as shown to a learner.
    public var displayName: LocalizedText {
        switch self {
        case .beginner: "Beginner"
        case .intermediate: "Intermediate"
        case .advanced: "Advanced"
        }
    }

    /// The level's Spanish name, folded, as the search's `nivel:` takes it.
    var spanishName: String {
        switch self {
        case .beginner: "principiante"
        case .intermediate: "intermedio"
        case .advanced: "avanzado"
        }
    }

    /// The level in three letters, where a table has no room for the name.
    public var shortName: LocalizedText {
        switch self {
        case .beginner: "Beg"
        case .intermediate: "Int"
        case .advanced: "Adv"
        }
    }
}
