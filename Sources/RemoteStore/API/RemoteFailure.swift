import EduGoAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import SharedKernel

/// What went wrong with one request, before it is told in the domain's terms (`AppError`).
enum RemoteFailure: Error, Sendable {
    /// The server answered with one of SPEC's errors: `{"error": code, "message": text}`;
    /// `code` is `nil` for a code this client does not know (from a newer server).
    case api(status: Int, code: ErrorCode?, message: String, retryAfter: Int?)
    /// No answer in time, no connection, or an answer that is not the API's (HTML, wrong
    /// JSON, a 5xx): the server cannot be used now. `detail` is for the log.
    case unreachable(detail: String)
    /// The caller stopped waiting.
    case cancelled
    /// Already in the domain's terms (the session's own failures: signed out, ended).
    case app(AppError)

    /// Reads what the generated client threw: the failure our middleware raised, the
    /// transport's error, or a body that did not decode.
    static func from(_ error: any Error) -> RemoteFailure {
        if let failure = error as? RemoteFailure { return failure }
        if error is CancellationError || Task.isCancelled { return .cancelled }
        if let client = error as? ClientError {
            if let failure = client.underlyingError as? RemoteFailure { return failure }
            if client.underlyingError is CancellationError { return .cancelled }
            return .unreachable(detail: "\(client.operationID): \(client.causeDescription): \(String(describing: client.underlyingError))")
        }
        return .unreachable(detail: String(describing: error))
    }

    /// The same failure as the local store would give it, where the code says one of the
    /// domain's; the codes that need the request's context (`course_not_found`, the
    /// refusals) are read by the caller first.
    var appError: AppError {
        switch self {
        case .cancelled: return .cancelled
        case .app(let error): return error
        case .unreachable: return .connectivity
        case .api(let status, let code, let message, let retryAfter):
            switch code {
            case .rateLimited: return .tooManyAttempts(retryAfterSeconds: retryAfter ?? 60)
            case .tooManyRequests: return .tooManyRequests(retryAfterSeconds: retryAfter ?? 60)
            case .invalidCredentials: return .invalidCredentials
            case .emailTaken: return .emailTaken
            case .unauthorized, .tokenExpired: return .notSignedIn
            case .invalidEmail: return .invalidAccount(AccountRejection(field: .email, message: .verbatim(message)))
            case .weakPassword: return .invalidAccount(AccountRejection(field: .password, message: .verbatim(message)))
            default:
                // A code this client does not know, or a 5xx: the server cannot serve it now.
                if status == 429 { return .tooManyRequests(retryAfterSeconds: retryAfter ?? 60) }
                return status >= 500
                    ? .connectivity : .storage(.reading, detail: "\(status) \(code?.rawValue ?? "unknown code"): \(message)")
            }
        }
    }

    /// Where the detail is worth a log line.
    var technicalDetail: String {
        switch self {
        case .api(let status, let code, let message, _): "HTTP \(status) \(code?.rawValue ?? "unknown code"): \(message)"
        case .unreachable(let detail): detail
        case .cancelled: "cancelled"
        case .app(let error): error.technicalMessage
        }
    }
}

/// Turns every answer that is not a success into a `RemoteFailure` before the generated code
/// reads it, so each call handles its success only (and a `304`, the answer to a request that
/// asked for one with `If-None-Match`). A body that is not SPEC's error shape, or any 5xx,
/// counts as the server being unusable, not as the learner's fault.
struct FailureMiddleware: ClientMiddleware {
    /// An error body is a few hundred bytes; anything far larger is not the API's.
    static let errorBodyLimit = 64 * 1024

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.kind != .successful else { return (response, responseBody) }
        if response.status == .notModified, request.headerFields[.ifNoneMatch] != nil { return (response, responseBody) }
        let status = response.status.code
        let data: Data
        do {
            if let responseBody { data = try await Data(collecting: responseBody, upTo: Self.errorBodyLimit) } else { data = Data() }
        } catch {
            throw RemoteFailure.unreachable(detail: "\(operationID): HTTP \(status), unreadable body: \(error)")
        }
        guard status < 500, let decoded = try? JSONDecoder().decode(ErrorBody.self, from: data) else {
            let excerpt = String(decoding: data.prefix(200), as: UTF8.self)
            throw RemoteFailure.unreachable(detail: "\(operationID): HTTP \(status): \(excerpt)")
        }
        let retryAfter = response.headerFields[.retryAfter].flatMap { Int($0) }
        throw RemoteFailure.api(status: status, code: ErrorCode(rawValue: decoded.error), message: decoded.message, retryAfter: retryAfter)
    }

    /// SPEC's error body, read with its code as text: an unknown code is still an answer.
    private struct ErrorBody: Decodable {
        let error: String
        let message: String
    }
}

/// The API's error codes, as `openapi.yaml` lists them.
typealias ErrorCode = Components.Schemas.ErrorCode
