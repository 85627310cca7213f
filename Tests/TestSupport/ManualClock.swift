import Synchronization

/// A clock that moves only when a test says so: `advance(by:)` resumes, at once and in order
/// of their deadlines, the sleepers it passes. For timers (status messages, retries, spinners)
/// tested without waiting for the wall clock.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        public var offset: Duration

        public init(offset: Duration = .zero) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant()
        var nextID = 0
        var sleepers: [Sleeper] = []
        /// Sleeps cancelled before they were registered.
        var cancelled: Set<Int> = []
        /// Tests waiting for someone to sleep.
        var watchers: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, watchers) = state.withLock { state -> ((any Error)??, [CheckedContinuation<Void, Never>]) in
                    if state.cancelled.remove(id) != nil { return (.some(CancellationError()), []) }
                    if deadline <= state.now { return (.some(nil), []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    defer { state.watchers.removeAll() }
                    return (nil, state.watchers)
                }
                watchers.forEach { $0.resume() }
                switch outcome {
                case .some(.some(let error)): continuation.resume(throwing: error)
                case .some(.none): continuation.resume()
                case .none: break
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the time on by `duration`, resuming every sleeper whose deadline it reaches.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        due.forEach { $0.continuation.resume() }
    }

    /// How many sleep now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// How long until the first sleeper wakes; nil when nobody sleeps.
    public var timeToNextWake: Duration? {
        state.withLock { state in state.sleepers.map(\.deadline).min().map { state.now.duration(to: $0) } }
    }

    /// The next `count` sleeps, each waited for and then run out: how long each was (a timer's
    /// backoff, read without waiting for the wall clock).
    public func runSleeps(_ count: Int) async -> [Duration] {
        var waits: [Duration] = []
        for _ in 0..<count {
            await waitForSleeper()
            guard let wait = timeToNextWake else { break }
            waits.append(wait)
            advance(by: wait)
        }
        return waits
    }

    /// Returns once somebody sleeps on this clock (at once if somebody does already): a test
    /// advances the clock after the timer it means is set, without polling for it.
    public func waitForSleeper() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let sleeping = state.withLock { state in
                if !state.sleepers.isEmpty { return true }
                state.watchers.append(continuation)
                return false
            }
            if sleeping { continuation.resume() }
        }
    }
}
