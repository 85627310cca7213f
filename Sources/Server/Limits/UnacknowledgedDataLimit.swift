import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Sets the kernel's limit on data a connection may leave unacknowledged (`TCP_USER_TIMEOUT`):
/// a client that went away without a word (its machine off, its network gone) has the
/// keep-alives of its event stream go unanswered, and the kernel drops its connection after
/// `limit` instead of retrying for a quarter of an hour.
final class UnacknowledgedDataLimit: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias InboundOut = NIOAny

    private let milliseconds: Int

    init(limit: Duration) {
        milliseconds = Int(limit.components.seconds) * 1_000 + Int(limit.components.attoseconds / 1_000_000_000_000_000)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        #if os(Linux)
        let option = ChannelOptions.socket(SocketOptionLevel(IPPROTO_TCP), SocketOptionName(TCP_USER_TIMEOUT))
        // Not every channel is a TCP socket (tests use others); those have no such limit.
        try? context.channel.syncOptions?.setOption(option, value: milliseconds)
        #endif
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }
}
