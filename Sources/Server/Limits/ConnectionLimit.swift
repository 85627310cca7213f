import NIOCore
import Synchronization

/// Open connections per client address, shared by every connection's `ConnectionLimit`.
final class ConnectionCounts: Sendable {
    let perAddress: Int
    private let counts = Mutex<[String: Int]>([:])

    init(perAddress: Int) {
        self.perAddress = perAddress
    }

    /// Counts a new connection from `address`, unless that address already holds its share.
    func open(_ address: String) -> Bool {
        counts.withLock { counts in
            let count = counts[address, default: 0]
            guard count < perAddress else { return false }
            counts[address] = count + 1
            return true
        }
    }

    func close(_ address: String) {
        counts.withLock { counts in
            let count = counts[address, default: 1] - 1
            counts[address] = count > 0 ? count : nil
        }
    }

    func count(of address: String) -> Int {
        counts.withLock { $0[address, default: 0] }
    }
}

/// Closes a new connection at once when its address already holds `perAddress` open ones, so
/// one client cannot hoard the server's connections (and its open files) from everyone else.
final class ConnectionLimit: ChannelInboundHandler, RemovableChannelHandler {
    // Parts pass through untouched, never unwrapped.
    typealias InboundIn = NIOAny
    typealias InboundOut = NIOAny

    private let counts: ConnectionCounts
    private var counted: String?

    init(counts: ConnectionCounts) {
        self.counts = counts
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let address = ClientAddress.text(context.channel.remoteAddress)
        if counts.open(address) {
            counted = address
        } else {
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let counted { counts.close(counted) }
        counted = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }
}
