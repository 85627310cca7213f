import Synchronization

/// Holds the renewal a start lets a known learner in with (`restore(knowing:)`) until the app
/// says its first frame is drawn. Every other call of the start waits for that renewal's
/// token (the page behind the frame, the event stream, the queue's send), so the server's work
/// for the start comes after the frame: with the server on the same two cores, it took about
/// 10 ms of a 53 ms start to the first frame from disk (BENCHMARKS, "Remote start").
public final class StartHold: Sendable {
    private enum State {
        case holding([UInt64: CheckedContinuation<Bool, Never>], next: UInt64)
        case open
        /// The app ended first: the renewal is never sent.
        case shut
    }

    private let state = Mutex(State.holding([:], next: 0))
    /// Who waits for a number of waiters held (tests): taken under `state`'s lock, after it.
    private let watchers = Mutex<[(count: Int, continuation: CheckedContinuation<Void, Never>)]>([])

    public init() {}

    /// Lets the held renewal go; later calls change nothing.
    public func open() {
        _ = end(as: .open)
    }

    /// The app is ending: a renewal still held is never sent. Returns whether it had been let
    /// go (the caller then waits for it to store its token).
    func shut() -> Bool {
        end(as: .shut)
    }

    /// Waits until the hold opens (true) or is shut (false); a cancelled waiter gets false.
    func wait() async -> Bool {
        let id: UInt64? = state.withLock { state in
            guard case .holding(let waiters, let next) = state else { return nil }
            state = .holding(waiters, next: next + 1)
            return next
        }
        guard let id else { return isOpen }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now: Bool? = state.withLock { state in
                    switch state {
                    case .holding(var waiters, let next):
                        if Task.isCancelled { return false }
                        waiters[id] = continuation
                        state = .holding(waiters, next: next)
                        let held = waiters.count
                        let ready = watchers.withLock { watchers in
                            defer { watchers.removeAll { $0.count <= held } }
                            return watchers.filter { $0.count <= held }
                        }
                        ready.forEach { $0.continuation.resume() }
                        return nil
                    case .open: return true
                    case .shut: return false
                    }
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
                guard case .holding(var waiters, let next) = state else { return nil }
                let waiter = waiters.removeValue(forKey: id)
                state = .holding(waiters, next: next)
                return waiter
            }
            waiter?.resume(returning: false)
        }
    }

    /// Returns once `count` callers are held at once, or the hold has ended (tests).
    func held(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let now: Bool = state.withLock { state in
                guard case .holding(let waiters, _) = state, waiters.count < count else { return true }
                watchers.withLock { $0.append((count, continuation)) }
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// How many wait now (tests).
    var waiting: Int {
        state.withLock { state in
            guard case .holding(let waiters, _) = state else { return 0 }
            return waiters.count
        }
    }

    private var isOpen: Bool {
        state.withLock { state in
            if case .open = state { return true }
            return false
        }
    }

    /// Ends the holding as `final` (open or shut), resuming its waiters; returns whether the
    /// hold had opened before.
    private func end(as final: State) -> Bool {
        let (wasOpen, waiters): (Bool, [CheckedContinuation<Bool, Never>]) = state.withLock { state in
            switch state {
            case .open: return (true, [])
            case .shut: return (false, [])
            case .holding(let waiters, _):
                state = final
                return (false, Array(waiters.values))
            }
        }
        watchers.withLock { watchers in
            defer { watchers.removeAll() }
            return watchers
        }.forEach { $0.continuation.resume() }
        let opened: Bool
        if case .open = final { opened = true } else { opened = false }
        waiters.forEach { $0.resume(returning: opened) }
        return wasOpen
    }
}
