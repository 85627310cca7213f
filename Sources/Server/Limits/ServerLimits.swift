import Foundation

/// What one client may hold of the server (SPEC.md, "The EduGo server"): the numbers behind
/// the rate limits, the hashing slots and the connection timeouts.
public struct ServerLimits: Sendable {
    /// Requests a minute per client address to each unauthenticated route (sign-in, account
    /// creation, refresh); 0 turns the limit off.
    public var requestsPerMinute = 20
    /// Password hashes at once; the rest wait their turn (`HashGate`).
    public var hashSlots = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// How long a sign-in or a new account may wait for a hashing slot before it is told the
    /// server is busy (`--hash-wait`).
    public var hashWait: Duration = .seconds(3)
    /// How long a connection may stay idle, take to send its headers, or its body.
    public var connectionTimeout: Duration = .seconds(30)
    /// How often an event stream with nothing to say writes a keep-alive: often enough that
    /// a dead client's connection fails within the connection timeout.
    public var keepAliveInterval: Duration { min(.seconds(15), connectionTimeout / 2) }
    /// Open connections from one client address; more are closed at once.
    public var connectionsPerAddress = 64
    /// Open connections in all, below the process's limit on open files.
    public var maximumConnections = ServerLimits.fileLimit.map { max(64, min(4_096, $0 - 128)) } ?? 1_024
    /// Connections no event stream may take (an eighth, at least 8): short requests (a sign-in,
    /// `/health`) find room while streams hold the rest; past half of them, a newcomer closes
    /// the connection idle longest.
    public var reservedConnections: Int { Self.reserve(of: maximumConnections) }
    /// Event streams open at once, from everyone.
    public var maximumEventStreams: Int { maximumConnections - reservedConnections }
    /// Event streams one learner may hold at once, whatever their addresses and sign-ins: a
    /// terminal holds one; past this a new one is refused (429 `too_many_requests`).
    public var streamsPerLearner = 8
    /// Memory for the public catalog pages kept (`PageCache`); 0 keeps none.
    public var pageCacheBytes = 64 << 20
    /// The metrics listener's connections in all (`--metrics-address`): its clients are a few
    /// scrapers, and its files come out of the same process's limit as the API's.
    public var metricsConnections = 64

    /// How long one store call may wait for PostgreSQL (a connection and its answers), and a
    /// write for SQLite's lock (from when it is asked): past it the request is 503
    /// `unavailable`, not a wait for the pool's retries or a write that lands later.
    public var databaseTimeLimit: Duration = .seconds(5)

    /// A PostgreSQL call slower than this is logged (a warning) with where its time went:
    /// waiting to start, for a connection, on the connection, and handing the answer back.
    public var slowDatabaseCall: Duration = .milliseconds(100)

    public init() {}

    /// The connections of a listener with `maximum` in all that are kept from event streams.
    static func reserve(of maximum: Int) -> Int {
        min(maximum - 1, max(8, maximum / 8))
    }

    /// The soft limit on open files (`ulimit -n`), when there is one.
    static var fileLimit: Int? {
        var limit = rlimit()
        // RLIM_INFINITY is all ones, and does not import as a constant.
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }
}
