import SharedKernel
import Synchronization

/// What one event stream has waiting for it. The hub hands changes over without ever waiting
/// (`deliver`), however slowly the stream's client reads; the stream takes them when it has
/// written what it had (`next`). A stream that falls more than `capacity` events behind gets
/// one `readEverything` for all of them, so a slow reader costs a bounded mailbox, never an
/// unbounded queue, and never holds up another stream.
final class EventMailbox: Sendable {
    enum Item: Hashable, Sendable {
        /// Changes the stream's learner (and sign-in) should hear of, oldest first.
        case events([ChangeEvent])
        /// Changes were dropped: everything shown must be read again, as of `through`.
        case readEverything(through: Int64)
        /// Nothing came for a while: the stream writes a keep-alive.
        case keepAlive
    }

    /// Events a stream may have waiting before they become one `readEverything`.
    static let capacity = 1_000

    let learner: UserID
    /// The sign-in (the access token's `sid`) of the stream: only its own `signedOut` comes here.
    let signIn: String
    private let closeConnection: @Sendable () -> Void

    private struct State {
        var events: [ChangeEvent] = []
        var readEverythingThrough: Int64?
        var finished = false
        var waiter: CheckedContinuation<Item?, Never>?
        /// Keep-alive ticks in a row at which the stream was busy writing instead of waiting.
        var ticksAway = 0
        /// A tick came while the stream was busy: it writes a keep-alive when it comes back
        /// with nothing else to write.
        var keepAlive = false

        mutating func take() -> Item? {
            defer { keepAlive = false }
            if let through = readEverythingThrough {
                readEverythingThrough = nil
                events = []
                return .readEverything(through: through)
            }
            if !events.isEmpty {
                defer { events = [] }
                return .events(events)
            }
            return keepAlive ? .keepAlive : nil
        }
    }

    private let state = Mutex(State())

    /// `closeConnection` closes the stream's connection: for a client that stopped reading,
    /// whose writes would otherwise wait for ever.
    init(learner: UserID, signIn: String, closeConnection: @escaping @Sendable () -> Void) {
        self.learner = learner
        self.signIn = signIn
        self.closeConnection = closeConnection
    }

    /// Whether the stream's client should hear of `change`: its learner's own and the
    /// public catalog's; of sign-ins ending, only its own.
    func accepts(_ change: Change) -> Bool {
        switch change {
        case .signedOut(let learner, let signIn): learner == self.learner && signIn == self.signIn
        default: change.learner == nil || change.learner == learner
        }
    }

    /// Hands over the events of `events` this stream accepts, at once.
    func deliver(_ events: [ChangeEvent]) {
        let mine = events.filter { accepts($0.change) }
        guard let newest = mine.last?.id else { return }
        resumeWaiter { state in
            if let through = state.readEverythingThrough {
                state.readEverythingThrough = max(through, newest)
            } else if state.events.count + mine.count > Self.capacity {
                state.events = []
                state.readEverythingThrough = newest
            } else {
                state.events += mine
            }
        }
    }

    /// Everything must be read again, as of `id` (the hub itself missed changes).
    func readEverything(through id: Int64) {
        resumeWaiter { state in
            state.events = []
            state.readEverythingThrough = max(state.readEverythingThrough ?? id, id)
        }
    }

    /// The keep-alive timer: the stream writes a keep-alive (now if it waits, else once it
    /// comes back with nothing else to write); one that was busy writing at `stallTicks` ticks
    /// in a row writes to a client that takes nothing, and its connection is closed.
    func tick(stallTicks: Int) {
        var stalled = false
        let waiter = state.withLock { state -> CheckedContinuation<Item?, Never>? in
            guard !state.finished else { return nil }
            guard let waiter = state.waiter else {
                state.keepAlive = true
                state.ticksAway += 1
                stalled = state.ticksAway >= stallTicks
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: .keepAlive)
        if stalled {
            closeConnection()
            finish()
        }
    }

    /// Ends the stream: its waiting `next` returns nil, and nothing more is handed over.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<Item?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// What is waiting, or the next thing to come; nil once finished (or the task cancelled).
    func next() async -> Item? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Item?, Never>) in
                let ready = state.withLock { state -> Item?? in
                    state.ticksAway = 0
                    if state.finished { return .some(nil) }
                    if let item = state.take() { return .some(item) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }

    /// Changes the state and, when the stream waits, hands it what is there now.
    private func resumeWaiter(_ change: (inout State) -> Void) {
        let handover = state.withLock { state -> (CheckedContinuation<Item?, Never>, Item)? in
            guard !state.finished else { return nil }
            change(&state)
            guard let waiter = state.waiter, let item = state.take() else { return nil }
            state.waiter = nil
            return (waiter, item)
        }
        if let (waiter, item) = handover { waiter.resume(returning: item) }
    }
}
