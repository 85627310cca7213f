import Hummingbird
import NIOCore

/// The connection of the request in progress, for the generated operations, which do not see
/// it (set by `ClientConnectionMiddleware`): an event stream whose client stops reading closes it.
enum ClientConnection {
    @TaskLocal static var close: @Sendable () -> Void = {}
}

/// A request context that knows its connection.
protocol ChannelRequestContext: RequestContext {
    var channel: any Channel { get }
}

/// Puts a way to close the request's connection where the operations can reach it.
struct ClientConnectionMiddleware<Context: ChannelRequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let channel = context.channel
        let close: @Sendable () -> Void = { channel.close(mode: .all, promise: nil) }
        return try await ClientConnection.$close.withValue(close) {
            try await next(request, context)
        }
    }
}
