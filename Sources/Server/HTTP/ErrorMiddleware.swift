import EduGoAPI
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OpenAPIRuntime
import SharedKernel

/// The edge of every request: one JSON log line with its id, status and duration; bodies over
/// 64 KiB refused before anything reads them; and every failure written as SPEC's
/// `{"error", "message"}`, so no input, however malformed, becomes a 500.
///
/// The log line holds the operation, the status, the error code and, for a 5xx, the
/// failure's kind (`Self.cause`): never a request's headers, body or decoded input, which
/// the generated `ServerError` carries whole (a password, a bearer token).
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    static var bodyLimit: Int { 64 * 1024 }

    let routes: KnownRoutes
    /// How long a request's body may take to arrive.
    let bodyTimeLimit: Duration
    /// Every language's words, made once: a failure's message follows `Accept-Language`.
    let languages: ServerLanguages

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let logger = context.logger
        logger.debug("request started", metadata: ["method": .string(request.method.rawValue), "path": .string(request.uri.path)])
        var response: Response
        var failure: (error: any Error, answer: APIFailure)?
        do {
            response = try await answer(request, context: context, next: next)
        } catch {
            let answer = self.failure(for: error, path: request.uri.path)
            failure = (error, answer)
            response = Self.response(for: answer, texts: languages.texts(accepting: request.headers[.acceptLanguage]))
        }
        if let id = logger[metadataKey: "hb.request.id"], let field = HTTPField.Name("X-Request-Id") {
            response.headers[field] = id.description
        }
        let elapsed = ContinuousClock.now - started
        var metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue),
            "path": .string(request.uri.path),
            "status": .stringConvertible(response.status.code),
            "duration_ms": .string(
                String(format: "%.2f", Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)),
        ]
        if let failure {
            metadata["error"] = .string(failure.answer.code.rawValue)
            if let operation = (failure.error as? ServerError)?.operationID { metadata["operation"] = .string(operation) }
            if response.status.code >= 500 { metadata["cause"] = .string(Self.cause(of: failure.error)) }
        }
        logger.log(level: response.status.code >= 500 ? .error : .info, "request", metadata: metadata)
        return response
    }

    private func answer(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > Self.bodyLimit {
            throw APIFailure.payloadTooLarge
        }
        // No body to wait for (most GETs): nothing to read, nothing to time.
        if request.headers[.contentLength] == nil, request.headers[.transferEncoding] == nil { return try await next(request, context) }
        // A body without a length (chunked) is read up to the limit, and no further, within
        // the body's time limit: a client that stops half-way holds nothing for long.
        let limit = bodyTimeLimit
        var collected = request
        do {
            collected = try await withDeadline(limit, on: ContinuousClock()) {
                var reading = request
                _ = try await reading.collectBody(upTo: Self.bodyLimit)
                return reading
            }
        } catch is DeadlineExceeded {
            throw APIFailure.bodyTimeout
        } catch is NIOTooManyBytesError {
            throw APIFailure.payloadTooLarge
        } catch {
            // Broken chunking, or the client went away half-way.
            throw APIFailure.invalidRequest(.badRequest, "The request body could not be read.")
        }
        return try await next(collected, context)
    }

    /// What went wrong, for the log: a store's own technical message (which names no
    /// request value), else only the type of the failure.
    static func cause(of error: any Error) -> String {
        let inner = (error as? ServerError)?.underlyingError ?? error
        let text: String =
            switch inner {
            case let error as AppError: error.technicalMessage
            case let failure as APIFailure: failure.code.rawValue
            default: String(reflecting: type(of: inner))
            }
        return String(PrintableText.sanitize(text).prefix(300))
    }

    /// What the client is told for an error from anywhere below.
    func failure(for error: any Error, path: String) -> APIFailure {
        switch error {
        case let error as ServerError:
            return Self.failure(forServerError: error)
        case let error as HTTPError:
            switch error.status {
            case .notFound:
                // No route matched: a known address with another method is 405.
                guard let methods = routes.methods(for: path) else { return .notFound }
                let allow = methods.map(\.rawValue).sorted().joined(separator: ", ")
                var failure = APIFailure(status: .methodNotAllowed, code: .methodNotAllowed, message: "This address takes \(allow) only.")
                failure.allow = allow
                return failure
            case .methodNotAllowed:
                return APIFailure(status: .methodNotAllowed, code: .methodNotAllowed, message: "This address does not take that method.")
            case .contentTooLarge: return .payloadTooLarge
            default:
                return APIFailure(
                    status: error.status, code: error.status.code < 500 ? .invalidRequest : ._internal,
                    message: .verbatim(error.status.reasonPhrase))
            }
        default:
            if let failure = APIFailure.from(error) { return failure }
            return APIFailure(status: .internalServerError, code: ._internal, message: "Something went wrong on the server.")
        }
    }

    /// The generated code wraps what fails while reading a request (and what the handler
    /// throws) in `ServerError`. Only the operations that take a body have one to get wrong:
    /// broken JSON is 400, JSON of the wrong shape 422; a path or query value not of its type
    /// is 400.
    private static func failure(forServerError error: ServerError) -> APIFailure {
        // A failure of the operation itself (the store away, a refusal), not of the request.
        if let failure = APIFailure.from(error.underlyingError) { return failure }
        guard let decoding = error.underlyingError as? DecodingError, [.post, .patch].contains(error.request.method) else {
            return .invalidRequest(.badRequest, "The request is not one this address takes: \(error.causeDescription)")
        }
        switch decoding {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return .invalidRequest(.badRequest, "The body is not valid JSON.")
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return .invalidRequest(
                .unprocessableContent,
                field.isEmpty ? "The body is not of the expected shape." : "The field \(field) is missing, unknown or of the wrong type.")
        @unknown default:
            return .invalidRequest(.unprocessableContent, "The body is not of the expected shape.")
        }
    }

    static func response(for failure: APIFailure, texts: Texts) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        if let retryAfter = failure.retryAfter { headers[.retryAfter] = String(retryAfter) }
        if let allow = failure.allow { headers[.allow] = allow }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = (try? encoder.encode(Components.Schemas._Error(error: failure.code, message: texts(failure.message)))) ?? Data()
        return Response(status: failure.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
