import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

/// A listener's open connections, shared by every connection's `ConnectionLimit`: how many
/// each client address holds, and which are idle (between requests) since when. One address
/// may hold `perAddress`; once `evictingFrom` are open, a new connection closes the one idle
/// longest, so connections held open doing nothing (kept alive, or never used) cannot keep
/// newcomers out (a sign-in, `/health`) while the listener's cap is reached.
final class OpenConnections: Sendable {
    let perAddress: Int
    let evictingFrom: Int

    private struct Entry {
        let address: String
        let channel: any Channel
        /// Requests read whose answers are not all written.
        var inFlight = 0
        /// When it last became idle, in `State.moments`.
        var idleSince: UInt64
    }

    private struct State {
        var perAddress: [String: Int] = [:]
        var entries: [Int: Entry] = [:]
        var nextID = 0
        /// A counter that orders idle spells (no clock needed, only their order).
        var moments: UInt64 = 0

        /// The connection idle longest, if one is (a scan: only near the cap).
        var longestIdle: (Int, Entry)? {
            var found: (Int, Entry)?
            for (id, entry) in entries where entry.inFlight == 0 && entry.idleSince < found?.1.idleSince ?? .max {
                found = (id, entry)
            }
            return found
        }

        /// Takes connection `id` out of the counts; what it was, if it was counted.
        mutating func remove(_ id: Int) -> Entry? {
            guard let entry = entries.removeValue(forKey: id) else { return nil }
            let left = perAddress[entry.address, default: 1] - 1
            perAddress[entry.address] = left > 0 ? left : nil
            return entry
        }
    }

    private let state = Mutex(State())

    init(perAddress: Int, evictingFrom: Int = .max) {
        self.perAddress = perAddress
        self.evictingFrom = evictingFrom
    }

    /// Counts `channel`, a new connection from `address`: its id, or nil when that address
    /// already holds its share. A connection idle longest is closed to make room when the
    /// listener is near its cap.
    func open(_ address: String, channel: any Channel) -> Int? {
        let (id, idle) = state.withLock { state -> (Int?, (any Channel)?) in
            let count = state.perAddress[address, default: 0]
            guard count < perAddress else { return (nil, nil) }
            var idle: (any Channel)?
            if state.entries.count >= evictingFrom, let (oldest, _) = state.longestIdle {
                // Out of the counts now: the next newcomer finds it gone, whenever it closes.
                idle = state.remove(oldest)?.channel
            }
            state.perAddress[address] = state.perAddress[address, default: 0] + 1
            state.moments += 1
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = Entry(address: address, channel: channel, idleSince: state.moments)
            return (id, idle)
        }
        idle?.close(mode: .all, promise: nil)
        return id
    }

    /// A request of connection `id` began.
    func requestStarted(_ id: Int) {
        state.withLock { $0.entries[id]?.inFlight += 1 }
    }

    /// An answer of connection `id` was written whole.
    func answerEnded(_ id: Int) {
        state.withLock { state in
            guard var entry = state.entries[id] else { return }
            entry.inFlight = max(0, entry.inFlight - 1)
            if entry.inFlight == 0 {
                state.moments += 1
                entry.idleSince = state.moments
            }
            state.entries[id] = entry
        }
    }

    func close(_ id: Int) {
        _ = state.withLock { $0.remove(id) }
    }
}

/// Closes a new connection at once when its address already holds its share of the listener
/// (`OpenConnections.perAddress`), so one client cannot hoard the server's connections (and its
/// open files) from everyone else; tells the listener when the connection is busy or idle.
final class ConnectionLimit: ChannelDuplexHandler, RemovableChannelHandler {
    // After Hummingbird's HTTP codec: requests and answers in HTTP types.
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let connections: OpenConnections
    private var id: Int?

    init(connections: OpenConnections) {
        self.connections = connections
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let address = ClientAddress.text(context.channel.remoteAddress)
        id = connections.open(address, channel: context.channel)
        if id == nil { context.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let id { connections.close(id) }
        id = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let id, case .head = unwrapInboundIn(data) { connections.requestStarted(id) }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if let id, case .end = unwrapOutboundIn(data) { connections.answerEnded(id) }
        context.write(data, promise: promise)
    }
}
