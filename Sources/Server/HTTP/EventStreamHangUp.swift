import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client hung up while an event stream is written to it. The
/// server lets a client half-close (send its end, still read the answer), so the end of the
/// client's side alone closes nothing; an event stream has no end of its own, and would keep
/// the connection (and its place among the address's connections) until a write failed.
final class EventStreamHangUp: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias InboundOut = NIOAny
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// An event stream's head was written and its end not yet.
    private var streaming = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head): streaming = head.headerFields[.contentType]?.hasPrefix("text/event-stream") == true
        case .end: streaming = false
        case .body: break
        }
        context.write(data, promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if streaming, case ChannelEvent.inputClosed? = event as? ChannelEvent {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
