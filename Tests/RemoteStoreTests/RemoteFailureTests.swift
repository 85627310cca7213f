import EduGoAPI
import SharedKernel
import Testing

@testable import RemoteStore

/// What a server's refusal reads as in the app: its code decides, never its message.
@Suite("Remote failures in the app's terms")
struct RemoteFailureTests {
    @Test(
        "429s: failed sign-ins, too many requests from this address, and one of a code this app does not know",
        arguments: [
            ("rate_limited", AppError.tooManyAttempts(retryAfterSeconds: 840)),
            ("too_many_requests", .tooManyRequests(retryAfterSeconds: 840)),
            ("slow_down", .tooManyRequests(retryAfterSeconds: 840)),
        ])
    func tooMany(code: String, expected: AppError) {
        let failure = RemoteFailure.api(status: 429, code: ErrorCode(rawValue: code), message: "whatever the server says", retryAfter: 840)

        #expect(failure.appError == expected)
    }

    @Test("a 429 without Retry-After asks for a minute")
    func noRetryAfter() {
        #expect(
            RemoteFailure.api(status: 429, code: .tooManyRequests, message: "", retryAfter: nil).appError
                == .tooManyRequests(retryAfterSeconds: 60))
    }
}
