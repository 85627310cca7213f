import Hummingbird
import NIOCore

/// The request context of the server: Hummingbird's, plus the client's address, which the
/// limits on unauthenticated routes count by, and its connection.
struct ServerRequestContext: RequestContext, RemoteAddressRequestContext, ChannelRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}

/// The address of the client of the request in progress, for the generated operations,
/// whose inputs do not carry it (set by `ClientAddressMiddleware`).
enum ClientAddress {
    @TaskLocal static var current = "unknown"

    /// The IP address alone: a client's ports change with every connection.
    static func text(_ address: SocketAddress?) -> String {
        address?.ipAddress ?? "unknown"
    }
}

/// Puts the client's address where the operations can read it.
struct ClientAddressMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await ClientAddress.$current.withValue(ClientAddress.text(context.remoteAddress)) {
            try await next(request, context)
        }
    }
}
