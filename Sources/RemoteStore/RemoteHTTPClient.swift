import AsyncHTTPClient
import EduGoAPI
import Foundation
import Logging
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import SharedKernel

/// The connections remote stores make: one per process, passed to each store, and shut down
/// by its owner once the stores are done (AsyncHTTPClient requires it).
public struct RemoteHTTPClient: Sendable {
    let client: HTTPClient

    public init() {
        var configuration = HTTPClient.Configuration()
        // A refused connection fails its request at once: AsyncHTTPClient would otherwise try
        // again until the time limit, and a dead server would look like a slow one.
        configuration.connectionPool.retryConnectionEstablishment = false
        // A read timeout for the event stream, which no request time limit bounds: the server
        // writes at least a keep-alive every 15 s, so one silent for 45 s is dropped and opened
        // again (every other request has its 10 s limit already).
        configuration.timeout = .init(
            connect: .seconds(Int64(RemoteStore.defaultTimeLimit.components.seconds)), read: .seconds(Self.streamSilenceLimit))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Seconds an answer may send nothing before its connection is given up.
    static let streamSilenceLimit: Int64 = 45

    public func shutdown() async {
        try? await client.shutdown()
    }
}
