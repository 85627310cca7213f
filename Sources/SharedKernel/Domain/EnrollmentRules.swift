/// Why an enrollment is refused; each has SPEC's sentence for the learner.
public enum EnrollmentRefusal: Hashable, Sendable {
    case alreadyEnrolled(title: String)
    case courseFull(title: String)
    case courseInactive(title: String)
    case prerequisiteNotCompleted(prerequisiteTitle: String)

    public var message: LocalizedText {
        switch self {
        case .alreadyEnrolled(let title): "You are already enrolled in \(title)"
        case .courseFull(let title): "\(title) is full"
        case .courseInactive(let title): "\(title) is not open for enrollment"
        case .prerequisiteNotCompleted(let title): "Complete \(title) first"
        }
    }
}

/// The enrollment rules, in the order they are checked, shared by the use case (for a clear
/// answer before any write), the store (which checks again inside its transaction, so two
/// racing instances cannot both take the last seat) and the marks of a catalog row.
public enum EnrollmentRules {
    /// `existing` is the learner's enrollment in the course, if any; `prerequisite` is the
    /// prerequisite course and whether the learner completed it.
    public static func refusal(
        for course: Course,
        existing: Enrollment?,
        prerequisite: (course: Course, completed: Bool)?
    ) -> EnrollmentRefusal? {
        switch firstBlock(course: course, holdsPlace: existing?.holdsPlace ?? false, prerequisiteMet: prerequisite?.completed ?? true) {
        case nil: nil
        case .enrolled: .alreadyEnrolled(title: course.title)
        case .inactive: .courseInactive(title: course.title)
        case .full: .courseFull(title: course.title)
        case .prerequisite: .prerequisiteNotCompleted(prerequisiteTitle: prerequisite?.course.title ?? "")
        }
    }

    /// The word for a course the learner cannot join now, by the same rules in the same order
    /// as `refusal(for:existing:prerequisite:)`; `nil` when they can, or are enrolled already.
    public static func block(for course: Course, marks: CourseMarks) -> EnrollmentBlock? {
        switch firstBlock(course: course, holdsPlace: marks.isEnrolled, prerequisiteMet: marks.prerequisiteMet) {
        case nil, .enrolled: nil
        case .inactive: .closed
        case .full: .full
        case .prerequisite: .locked
        }
    }

    private enum Rule {
        case enrolled, inactive, full, prerequisite
    }

    /// The one order of the rules: the first that stops the learner joining.
    private static func firstBlock(course: Course, holdsPlace: Bool, prerequisiteMet: Bool) -> Rule? {
        if holdsPlace { return .enrolled }
        if !course.isActive { return .inactive }
        if course.isFull { return .full }
        if !prerequisiteMet { return .prerequisite }
        return nil
    }
}
