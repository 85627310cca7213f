import Hummingbird
import NIOCore

/// The connection of the request in progress, for the generated operations, which do not see
/// it (set by `ClientConnectionMiddleware`): an event stream closes it when its client stops
/// reading, and ends when it closes.
struct ClientConnection: Sendable {
    @TaskLocal static var current: ClientConnection?

    let channel: any Channel

    func close() {
        channel.close(mode: .all, promise: nil)
    }

    /// Runs `body` once the connection is closed (at once if it is).
    func whenClosed(_ body: @escaping @Sendable () -> Void) {
        channel.closeFuture.whenComplete { _ in body() }
    }
}

/// A request context that knows its connection.
protocol ChannelRequestContext: RequestContext {
    var channel: any Channel { get }
}

/// Puts the request's connection where the operations can reach it.
struct ClientConnectionMiddleware<Context: ChannelRequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await ClientConnection.$current.withValue(ClientConnection(channel: context.channel)) {
            try await next(request, context)
        }
    }
}
