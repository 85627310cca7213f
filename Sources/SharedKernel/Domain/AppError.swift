/// Every failure a feature can meet, in semantic terms: never a raw SQLite or POSIX error.
public enum AppError: Error, Hashable, Sendable {
    /// The data source could not be reached.
    case connectivity
    case courseNotFound(CourseID)
    case notSignedIn
    /// Wrong email or wrong password: deliberately the same error for both.
    case invalidCredentials
    /// An account form broke a rule (the reason is for the person).
    case invalidAccount(reason: String)
    case emailTaken
    /// A business rule said no; nothing was written.
    case refused(EnrollmentRefusal)
    /// A profile name broke SPEC's rules; nothing was written.
    case invalidName(ProfileNameRejection)
    /// The learner is not enrolled in the course they tried to leave.
    case notEnrolled(CourseID)
    /// The store failed in a way the user cannot fix; `detail` is for the log only.
    case storage(detail: String)

    /// What the person in front of the terminal reads.
    public var userMessage: String {
        switch self {
        case .connectivity: "Cannot reach the EduGo catalog. Check your connection."
        case .courseNotFound: "This course no longer exists."
        case .notSignedIn: "Please sign in first."
        case .invalidCredentials: "Invalid email or password"
        case .invalidAccount(let reason): reason
        case .emailTaken: "An account with that email already exists"
        case .refused(let refusal): refusal.message
        case .invalidName(let rejection): rejection.message
        case .notEnrolled: "You are not enrolled in this course."
        case .storage: "Something went wrong while reading your data."
        }
    }

    /// What a developer reads in the log.
    public var technicalMessage: String {
        switch self {
        case .connectivity: "connectivity: data source unreachable"
        case .courseNotFound(let id): "course not found: \(id)"
        case .notSignedIn: "no session"
        case .invalidCredentials: "invalid credentials"
        case .invalidAccount(let reason): "invalid account: \(reason)"
        case .emailTaken: "email taken"
        case .refused(let refusal): "refused: \(refusal)"
        case .invalidName(let rejection): "invalid name: \(rejection)"
        case .notEnrolled(let id): "not enrolled: \(id)"
        case .storage(let detail): "storage: \(detail)"
        }
    }
}
