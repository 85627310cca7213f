import Synchronization

/// How many calls of a store wait for a database connection and how many hold one, counted
/// where the store asks its pool: what an operator reads as "pool in use" and "waiting".
public final class DatabaseUse: Sendable {
    public struct Counts: Sendable, Equatable {
        /// Calls that asked for a connection and have none yet.
        public var waiting = 0
        /// Calls holding a connection.
        public var inUse = 0

        public init(waiting: Int = 0, inUse: Int = 0) {
            self.waiting = waiting
            self.inUse = inUse
        }
    }

    private struct State {
        var counts = Counts()
        var watchers: [(until: @Sendable (Counts) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    public init() {}

    public var counts: Counts { state.withLock { $0.counts } }
    public var waiting: Int { counts.waiting }
    public var inUse: Int { counts.inUse }

    /// Returns once the counts satisfy `condition` (tests hold a connection and wait for a
    /// call to queue behind it, as `HashGate.waitUntilQueued` does for hashes).
    public func waitUntil(_ condition: @escaping @Sendable (Counts) -> Bool) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if condition(state.counts) { return true }
                state.watchers.append((condition, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// A call that starts waiting for a connection; it ends with `leave()` whatever happens.
    public func arrive() -> Visit {
        change { $0.waiting += 1 }
        return Visit(use: self)
    }

    fileprivate func change(_ body: (inout Counts) -> Void) {
        let ready = state.withLock { state in
            body(&state.counts)
            let counts = state.counts
            let ready = state.watchers.filter { $0.until(counts) }.map(\.continuation)
            if !ready.isEmpty { state.watchers.removeAll { $0.until(counts) } }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// One call's stay: waiting, then holding a connection, then gone.
    public final class Visit: Sendable {
        private let use: DatabaseUse
        /// 0 waiting, 1 holding, 2 gone.
        private let stage = Mutex(0)

        fileprivate init(use: DatabaseUse) { self.use = use }

        /// The call got its connection (a retried call may say so again).
        public func hold() {
            let moved = stage.withLock { stage in
                defer { if stage == 0 { stage = 1 } }
                return stage == 0
            }
            if moved {
                use.change {
                    $0.waiting -= 1
                    $0.inUse += 1
                }
            }
        }

        /// The call is over, with or without a connection.
        public func leave() {
            let previous = stage.withLock { stage in
                defer { stage = 2 }
                return stage
            }
            switch previous {
            case 0: use.change { $0.waiting -= 1 }
            case 1: use.change { $0.inUse -= 1 }
            default: break
            }
        }
    }
}
