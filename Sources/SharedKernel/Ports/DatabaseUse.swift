import Synchronization

/// How many calls of a store wait for a database connection and how many hold one, counted
/// where the store asks its pool: what an operator reads as "pool in use" and "waiting".
public final class DatabaseUse: Sendable {
    private let counts = Mutex((waiting: 0, inUse: 0))

    public init() {}

    /// Calls that asked for a connection and have none yet.
    public var waiting: Int { counts.withLock { $0.waiting } }
    /// Calls holding a connection.
    public var inUse: Int { counts.withLock { $0.inUse } }

    /// A call that starts waiting for a connection; it ends with `leave()` whatever happens.
    public func arrive() -> Visit {
        counts.withLock { $0.waiting += 1 }
        return Visit(use: self)
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
                use.counts.withLock {
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
            case 0: use.counts.withLock { $0.waiting -= 1 }
            case 1: use.counts.withLock { $0.inUse -= 1 }
            default: break
            }
        }
    }
}
