import AsyncHTTPClient
import EduGoAPI
import Foundation
import HTTPTypes
import Logging
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import SharedKernel
import Synchronization

/// The connections remote stores make: one per process, passed to each store, and shut down
/// by its owner once the stores are done (AsyncHTTPClient requires it). Made on the first
/// request: making it starts NIO's event-loop threads and waits for them (2 ms traced), which
/// a start drawn from the replica does not wait for.
public final class RemoteHTTPClient: Sendable {
    private enum State {
        case unmade
        case made(HTTPClient)
        /// Shut down before any request made it: a request then fails as on a client shut down.
        case shutDown
    }

    private let state = Mutex(State.unmade)

    public init() {}

    /// The client, made now if no request made it before.
    var client: HTTPClient {
        get throws {
            try state.withLock { state in
                switch state {
                case .made(let client): return client
                case .shutDown: throw HTTPClientError.alreadyShutdown
                case .unmade: break
                }
                var configuration = HTTPClient.Configuration()
                // A refused connection fails its request at once: AsyncHTTPClient would otherwise try
                // again until the time limit, and a dead server would look like a slow one.
                configuration.connectionPool.retryConnectionEstablishment = false
                // A read timeout for the event stream, which no request time limit bounds: the server
                // writes at least a keep-alive every 15 s, so one silent for 45 s is dropped and opened
                // again (every other request has its 10 s limit already).
                configuration.timeout = .init(
                    connect: .seconds(Int64(RemoteStore.defaultTimeLimit.components.seconds)), read: .seconds(Self.streamSilenceLimit))
                let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
                state = .made(client)
                return client
            }
        }
    }

    /// A transport over the client, each request's deadline `timeout`; the client is made by
    /// the first request sent.
    func transport(timeout: TimeAmount) -> some ClientTransport {
        DeferredTransport(owner: self, timeout: timeout)
    }

    /// Seconds an answer may send nothing before its connection is given up.
    static let streamSilenceLimit: Int64 = 45

    /// Shuts the client down if a request made it; a request after this fails as AsyncHTTPClient
    /// fails one on a client shut down.
    public func shutdown() async {
        let made = state.withLock { state -> HTTPClient? in
            guard case .made(let client) = state else {
                state = .shutDown
                return nil
            }
            return client
        }
        try? await made?.shutdown()
    }
}

/// AsyncHTTPClient's transport, asked for the client at each request.
private struct DeferredTransport: ClientTransport {
    let owner: RemoteHTTPClient
    let timeout: TimeAmount

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let transport = AsyncHTTPClientTransport(configuration: .init(client: try owner.client, timeout: timeout))
        return try await transport.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}
