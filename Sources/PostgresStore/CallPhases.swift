import Logging
import SharedKernel
import Synchronization

/// Where one call's time went, for the log of slow calls: from the call to its work starting
/// (a task of the pool), to a connection leased, to the connection's last answer, and to the
/// caller having the result again. Marked from the work's task, read by the caller once the
/// result is back; atomics, because the two run on different threads.
final class CallPhases: Sendable {
    enum Mark: Int {
        case started, leased, answered
    }

    private let began = ContinuousClock.now
    /// Nanoseconds after `began`, per mark; 0 while not reached.
    private let started = Atomic<Int64>(0)
    private let leased = Atomic<Int64>(0)
    private let answered = Atomic<Int64>(0)

    func mark(_ mark: Mark) {
        let elapsed = Self.nanoseconds(began.duration(to: .now))
        switch mark {
        case .started: started.store(elapsed, ordering: .relaxed)
        case .leased: leased.store(elapsed, ordering: .relaxed)
        case .answered: answered.store(elapsed, ordering: .relaxed)
        }
    }

    /// The phases in milliseconds: waiting to start, for a connection, on it, handing back;
    /// a phase not reached (a call past its limit, or that failed) is left out.
    func phases(total: Duration) -> [(name: String, milliseconds: Double)] {
        let reached = [started.load(ordering: .relaxed), leased.load(ordering: .relaxed), answered.load(ordering: .relaxed)]
        let names = ["queued_ms", "lease_ms", "connection_ms"]
        var result: [(String, Double)] = []
        var previous: Int64 = 0
        for (name, mark) in zip(names, reached) where mark > 0 {
            result.append((name, Double(mark - previous) / 1e6))
            previous = mark
        }
        if reached[2] > 0 { result.append(("return_ms", Double(Self.nanoseconds(total) - reached[2]) / 1e6)) }
        return result
    }

    /// Logs the call as a warning if it took longer than `threshold` until now.
    func logIfSlower(than threshold: Duration, _ kind: DataOperation, _ logger: Logger) {
        let total = began.duration(to: .now)
        guard total > threshold else { return }
        var metadata: Logger.Metadata = [
            "operation": "\(kind.rawValue)", "total_ms": "\(Self.rounded(Double(Self.nanoseconds(total)) / 1e6))",
        ]
        for (name, milliseconds) in phases(total: total) { metadata[name] = "\(Self.rounded(milliseconds))" }
        logger.warning("slow PostgreSQL call", metadata: metadata)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    private static func rounded(_ milliseconds: Double) -> Double {
        (milliseconds * 10).rounded() / 10
    }
}
