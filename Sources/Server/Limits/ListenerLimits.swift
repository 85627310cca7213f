import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// How a listener of the server takes connections, the API's and the metrics one alike: HTTP/1
/// with the idle timeout, a share per client address, a cap in all (past it, connections wait
/// to be accepted) and, near that cap, the connection idle longest closed for a newcomer.
struct ListenerLimits: Sendable {
    let connections: OpenConnections
    let maximumConnections: Int
    private let timeout: Duration

    init(_ limits: ServerLimits, maximumConnections: Int) {
        self.maximumConnections = maximumConnections
        timeout = limits.connectionTimeout
        // Past half the reserve, a newcomer closes the connection idle longest.
        let reserved = ServerLimits.reserve(of: maximumConnections)
        connections = OpenConnections(
            perAddress: min(limits.connectionsPerAddress, maximumConnections), evictingFrom: maximumConnections - max(1, reserved / 2))
    }

    var server: HTTPServerBuilder {
        let (connections, timeout) = (self.connections, self.timeout)
        return HTTPServerBuilder { responder in
            HTTP1KeepAliveChannel(
                http1: HTTP1Channel(
                    responder: responder,
                    configuration: .init(
                        additionalChannelHandlers: [
                            ConnectionLimit(connections: connections), UnacknowledgedDataLimit(limit: timeout), EventStreamHangUp(),
                        ],
                        idleTimeout: .milliseconds(Int64(timeout / .milliseconds(1)))
                    )))
        }
    }

    func configuration(address: BindAddress, logger: Logger) -> ApplicationConfiguration {
        ApplicationConfiguration(
            address: address, serverName: nil,
            availableConnectionsDelegate: MaximumAvailableConnections(maximumConnections, logger: logger))
    }
}
