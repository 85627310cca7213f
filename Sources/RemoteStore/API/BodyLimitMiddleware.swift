import EduGoAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import SharedKernel

/// Collects every successful answer's body, up to `limit`, before the generated code reads it
/// (which would otherwise collect any body whole, however large: an endless one grew the app
/// to 4.2 GB). A body past the cap is the server being unusable (`RemoteFailure.unreachable`),
/// and it is read no further: a declared length past the cap is refused before a byte is read,
/// and an undeclared one is dropped at the first chunk past it, which closes the connection.
/// Memory held for an answer is bounded by the cap, whatever the server sends.
struct BodyLimitMiddleware: ClientMiddleware {
    /// 4 MiB for any answer (`CourseLimits.answerBytes`, which servers keep under): a page of
    /// 100 courses is about 60 KB, and a course with 200 lessons about 20 KB (README, "Remote
    /// mode").
    static let limit = CourseLimits.answerBytes
    /// 32 MiB for the learner's whole lists, which grow with them: 10,000 enrollments are
    /// about 5 MB, 10,000 favourites 4 MB.
    static let listLimit = 32 * 1024 * 1024

    static func limit(for operationID: String) -> Int {
        switch operationID {
        case Operations.ListEnrollments.id, Operations.ListFavourites.id: listLimit
        default: limit
        }
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        // The event stream is endless by design: its events are capped one by one instead
        // (`EventSizeLimit`).
        guard response.status.kind == .successful, let responseBody, operationID != Operations.StreamEvents.id else {
            return (response, responseBody)
        }
        let limit = Self.limit(for: operationID)
        if case .known(let length) = responseBody.length, length > limit {
            throw RemoteFailure.unreachable(detail: "\(operationID): a body of \(length) bytes, past the \(limit)-byte cap")
        }
        var collected = HTTPBody.ByteChunk()
        if case .known(let length) = responseBody.length { collected.reserveCapacity(Int(length)) }
        for try await chunk in responseBody {
            guard collected.count + chunk.count <= limit else {
                throw RemoteFailure.unreachable(detail: "\(operationID): a body past the \(limit)-byte cap")
            }
            collected.append(contentsOf: chunk)
        }
        return (response, HTTPBody(collected))
    }
}
