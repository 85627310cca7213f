/// Every failure a feature can meet, in semantic terms: never a raw SQLite or POSIX error.
public enum AppError: Error, Hashable, Sendable {
    /// The data source could not be reached.
    case connectivity
    /// Remote mode: the EduGo server at `host` (`host:port`) could not be reached or answered
    /// garbage; the app tries again by itself.
    case unreachable(host: String)
    case courseNotFound(CourseID)
    case notSignedIn
    /// The server no longer honours the learner's session (it was ended, or the server lost
    /// it): they must sign in again.
    case sessionEnded
    /// Wrong email or wrong password: deliberately the same error for both.
    case invalidCredentials
    /// An account form broke a rule; the rejection names the field.
    case invalidAccount(AccountRejection)
    case emailTaken
    /// Too many failed sign-ins for one email: the server takes no more for this long.
    case tooManyAttempts(retryAfterSeconds: Int)
    /// Too many requests from this address (accounts made, sessions renewed): the server takes
    /// no more for this long.
    case tooManyRequests(retryAfterSeconds: Int)
    /// A business rule said no; nothing was written.
    case refused(EnrollmentRefusal)
    /// A profile name broke SPEC's rules; nothing was written.
    case invalidName(ProfileNameRejection)
    /// The learner is not enrolled in the course they tried to leave or mark a lesson of.
    case notEnrolled(CourseID)
    /// The course has no lesson with that number.
    case noSuchLesson(CourseID, Int)
    /// An answer that is not 1 to 6 different choices of its question; nothing was written.
    case invalidAnswer(QuestionRef)
    /// An undo of a grade that is not the card's last any more (graded again, or undone, in
    /// another terminal) or was never given; nothing was written.
    case nothingToUndo(QuestionRef)
    /// A review of a card not due (graded already, in this or another terminal); nothing
    /// was written.
    case notDue(QuestionRef)
    /// The store failed in a way the user cannot fix; `detail` is for the log only.
    case storage(DataOperation, detail: String)
    /// The caller stopped waiting (a newer request replaced this one); nobody is told.
    case cancelled

    /// What the person in front of the terminal reads.
    public var userMessage: LocalizedText {
        switch self {
        case .connectivity: "Cannot reach the EduGo catalog. Check your connection."
        case .unreachable(let host): "Cannot reach \(host)"
        case .courseNotFound: "This course no longer exists."
        case .notSignedIn: "Please sign in first."
        case .sessionEnded: "Your session has ended — sign in again"
        case .invalidCredentials: "Invalid email or password"
        case .invalidAccount(let rejection): rejection.message
        case .emailTaken: "An account with that email already exists"
        case .tooManyAttempts(let seconds):
            "Too many failed sign-ins — try again in \(Self.wait(seconds))"
        case .tooManyRequests(let seconds):
            "Too many requests — try again in \(Self.wait(seconds))"
        case .refused(let refusal): refusal.message
        case .invalidName(let rejection): rejection.message
        case .notEnrolled: "You are not enrolled in this course."
        case .noSuchLesson: "This lesson is no longer part of the course."
        case .invalidAnswer: "Pick 1 to 6 of the question's choices."
        case .nothingToUndo: "Not undone: that grade was changed in another terminal"
        case .notDue: "This card is not due: it was reviewed already, perhaps in another terminal."
        case .storage(.reading, _): "Something went wrong while reading your data."
        case .storage(.saving, _): "Something went wrong while saving your data."
        case .cancelled: "Cancelled."
        }
    }

    /// `45 s`, or `3 min` from 90 s on.
    private static func wait(_ seconds: Int) -> LocalizedText {
        seconds < 90 ? "\(seconds) s" : "\((seconds + 59) / 60) min"
    }

    /// What a developer reads in the log.
    public var technicalMessage: String {
        switch self {
        case .connectivity: "connectivity: data source unreachable"
        case .unreachable(let host): "connectivity: server \(host) unreachable"
        case .courseNotFound(let id): "course not found: \(id)"
        case .notSignedIn: "no session"
        case .sessionEnded: "session ended by the server"
        case .invalidCredentials: "invalid credentials"
        case .invalidAccount(let rejection): "invalid account: \(rejection.field) \(rejection.message)"
        case .emailTaken: "email taken"
        case .tooManyAttempts(let seconds): "rate limited for \(seconds) s"
        case .tooManyRequests(let seconds): "address rate limited for \(seconds) s"
        case .refused(let refusal): "refused: \(refusal)"
        case .invalidName(let rejection): "invalid name: \(rejection)"
        case .notEnrolled(let id): "not enrolled: \(id)"
        case .noSuchLesson(let id, let number): "no lesson \(number) in \(id)"
        case .invalidAnswer(let ref):
            "an answer that is not 1 to 6 choices of question \(ref.question) of lesson \(ref.lesson) in \(ref.courseID)"
        case .nothingToUndo(let ref):
            "nothing to undo for question \(ref.question) of lesson \(ref.lesson) in \(ref.courseID)"
        case .notDue(let ref): "question \(ref.question) of lesson \(ref.lesson) in \(ref.courseID) is not due"
        case .storage(let operation, let detail): "storage (\(operation.rawValue)): \(detail)"
        case .cancelled: "cancelled"
        }
    }
}

/// What the store was doing when it failed, so the person reads the right verb.
public enum DataOperation: String, Hashable, Sendable {
    case reading
    case saving
}

extension AppError {
    /// The server could not be reached (remote mode): a replica answers, a write waits.
    public var isUnreachable: Bool {
        switch self {
        case .unreachable, .connectivity: true
        default: false
        }
    }
}
