import AsyncHTTPClient
import EduGoAPI
import Foundation
import Logging
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import SharedKernel

/// How every request goes: within the time limit, its failure logged, and whether the server
/// answered told to `reachability`.
struct APIRequests: Sendable {
    let client: Client
    let timeLimit: Duration
    /// What `timeLimit` is measured on.
    let limitClock: any Clock<Duration>
    /// `host:port`, as the learner knows the server.
    let host: String
    let logger: Logger
    let reachability: Reachability

    func send<T: Sendable>(within limit: Duration? = nil, _ operation: @escaping @Sendable (Client) async throws -> T)
        async throws(RemoteFailure) -> T
    {
        let client = self.client
        do {
            let value = try await limited(to: limit) { try await operation(client) }
            await reachability.note(nil)
            return value
        } catch {
            let failure = RemoteFailure.from(error)
            await reachability.note(failure)
            switch failure {
            case .unreachable(let detail): logger.warning("server \(host) unusable", metadata: ["detail": "\(detail)"])
            case .api(let status, _, _, _) where status >= 500:
                logger.warning("server error", metadata: ["detail": "\(failure.technicalDetail)"])
            default: break
            }
            throw failure
        }
    }

    /// The operation, or `.unreachable` when it has no answer in time (body included).
    private func limited<T: Sendable>(to limit: Duration?, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let limit = min(limit ?? timeLimit, timeLimit)
        do {
            return try await withDeadline(limit, on: limitClock, operation: operation)
        } catch is DeadlineExceeded {
            throw RemoteFailure.unreachable(detail: "no answer within \(limit)")
        }
    }
}
