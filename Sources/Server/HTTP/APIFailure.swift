import EduGoAPI
import HTTPTypes
import SharedKernel

/// An answer other than success: SPEC's error code, its status and the user text. Handlers
/// throw it; `ErrorMiddleware` writes it as `{"error", "message"}`.
struct APIFailure: Error, Hashable, Sendable {
    let status: HTTPResponse.Status
    let code: ErrorCode
    /// In the words of the request's `Accept-Language` when written (`ErrorMiddleware`).
    let message: LocalizedText
    /// Seconds, for 429.
    var retryAfter: Int?
    /// The methods an address takes, for 405.
    var allow: String?

    init(status: HTTPResponse.Status, code: ErrorCode, message: LocalizedText, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    static let unauthorized = APIFailure(status: .unauthorized, code: .unauthorized, message: "Please sign in first.")
    static let tokenExpired = APIFailure(status: .unauthorized, code: .tokenExpired, message: "Your session has ended — sign in again")
    static let notFound = APIFailure(status: .notFound, code: .notFound, message: "There is nothing at this address.")
    static let payloadTooLarge = APIFailure(status: .contentTooLarge, code: .payloadTooLarge, message: "The request is larger than 64 KiB.")

    static let bodyTimeout = APIFailure(status: .requestTimeout, code: .invalidRequest, message: "The request body did not arrive in time.")

    /// Every slot for password hashing stayed taken for longer than a learner should wait.
    static let busy = APIFailure(
        status: .serviceUnavailable, code: .unavailable, message: "The server is busy — try again in a moment.", retryAfter: 1
    )

    /// Seconds a client is asked to wait before trying again after a 503.
    static let unavailableRetryAfter = 2

    static func invalidRequest(_ status: HTTPResponse.Status, _ message: LocalizedText) -> APIFailure {
        APIFailure(status: status, code: .invalidRequest, message: message)
    }

    /// Too many requests to an unauthenticated route from one client address.
    static func tooManyRequests(retryAfter: Int) -> APIFailure {
        APIFailure(
            status: .tooManyRequests, code: .tooManyRequests,
            message: AppError.tooManyRequests(retryAfterSeconds: retryAfter).userMessage, retryAfter: retryAfter
        )
    }

    /// The learner holds as many event streams as one may (every terminal of theirs needs one):
    /// one of them must end first, or its connection be found dead (within the connection
    /// timeout).
    static func tooManyStreams(_ limit: Int) -> APIFailure {
        APIFailure(
            status: .tooManyRequests, code: .tooManyRequests,
            message: "You have \(limit) live connections open already — close a terminal, or try again in a moment.",
            retryAfter: 10)
    }

    static func rateLimited(retryAfter: Int) -> APIFailure {
        APIFailure(
            status: .tooManyRequests, code: .rateLimited,
            message: AppError.tooManyAttempts(retryAfterSeconds: retryAfter).userMessage, retryAfter: retryAfter
        )
    }

    /// What anything thrown below the router is for the client: an `APIFailure` as it is, an
    /// `AppError` by the table below, anything else nil.
    static func from(_ error: any Error) -> APIFailure? {
        if let failure = error as? APIFailure { return failure }
        if let error = error as? AppError { return APIFailure(error) }
        return nil
    }

    /// The API's answer for a failure of the domain or the store.
    init(_ error: AppError) {
        switch error {
        case .courseNotFound: self.init(status: .notFound, code: .courseNotFound, message: error.userMessage)
        case .notEnrolled: self.init(status: .notFound, code: .notEnrolled, message: error.userMessage)
        case .noSuchLesson: self.init(status: .notFound, code: .lessonNotFound, message: error.userMessage)
        case .invalidAnswer: self = .invalidRequest(.unprocessableContent, error.userMessage)
        case .nothingToUndo: self.init(status: .unprocessableContent, code: .nothingToUndo, message: error.userMessage)
        case .notDue: self.init(status: .unprocessableContent, code: .cardNotDue, message: error.userMessage)
        case .notSignedIn, .sessionEnded: self = .unauthorized
        case .invalidCredentials: self.init(status: .unauthorized, code: .invalidCredentials, message: error.userMessage)
        case .emailTaken: self.init(status: .conflict, code: .emailTaken, message: error.userMessage)
        case .tooManyAttempts(let seconds): self = .rateLimited(retryAfter: seconds)
        case .tooManyRequests(let seconds): self = .tooManyRequests(retryAfter: seconds)
        case .invalidName: self.init(status: .unprocessableContent, code: .invalidName, message: error.userMessage)
        case .invalidAccount(let rejection):
            let code: ErrorCode =
                switch rejection.field {
                case .name: .invalidName
                case .email: .invalidEmail
                case .password: .weakPassword
                }
            self.init(status: .unprocessableContent, code: code, message: rejection.message)
        case .refused(let refusal):
            let code: ErrorCode =
                switch refusal {
                case .alreadyEnrolled: .alreadyEnrolled
                case .courseFull: .courseFull
                case .courseInactive: .courseInactive
                case .prerequisiteNotCompleted: .prerequisiteMissing
                }
            self.init(status: .conflict, code: code, message: refusal.message)
        case .connectivity, .unreachable, .storage, .cancelled:
            self.init(status: .serviceUnavailable, code: .unavailable, message: error.userMessage, retryAfter: Self.unavailableRetryAfter)
        }
    }
}

/// The API's error codes, as `openapi.yaml` lists them.
typealias ErrorCode = Components.Schemas.ErrorCode
