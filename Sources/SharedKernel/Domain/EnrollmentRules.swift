/// Why an enrollment is refused; each has SPEC's sentence for the learner.
public enum EnrollmentRefusal: Hashable, Sendable {
    case alreadyEnrolled(title: String)
    case courseFull(title: String)
    case courseInactive(title: String)
    case prerequisiteNotCompleted(prerequisiteTitle: String)

    public var message: String {
        switch self {
        case .alreadyEnrolled(let title): "You are already enrolled in \(title)"
        case .courseFull(let title): "\(title) is full"
        case .courseInactive(let title): "\(title) is not open for enrollment"
        case .prerequisiteNotCompleted(let title): "Complete \(title) first"
        }
    }
}

/// The enrollment rules, in the order they are checked, shared by the use case (for a clear
/// answer before any write) and the store (which checks again inside its transaction, so two
/// racing instances cannot both take the last seat).
public enum EnrollmentRules {
    /// `existing` is the learner's enrollment in the course, if any; `prerequisite` is the
    /// prerequisite course and whether the learner completed it.
    public static func refusal(
        for course: Course,
        existing: Enrollment?,
        prerequisite: (course: Course, completed: Bool)?
    ) -> EnrollmentRefusal? {
        if let existing, existing.holdsPlace { return .alreadyEnrolled(title: course.title) }
        if !course.isActive { return .courseInactive(title: course.title) }
        if course.isFull { return .courseFull(title: course.title) }
        if let prerequisite, !prerequisite.completed {
            return .prerequisiteNotCompleted(prerequisiteTitle: prerequisite.course.title)
        }
        return nil
    }
}
