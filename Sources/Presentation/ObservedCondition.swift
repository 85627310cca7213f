import Observation
import Synchronization

/// Waiting for a condition over observable state without polling: the condition is read
/// under observation tracking, and the wait resumes when something it read changes.
public enum ObservedCondition {
    /// Returns once `condition` holds (at once if it does already), or when the calling task
    /// is cancelled.
    @MainActor
    public static func wait(until condition: @escaping @MainActor () -> Bool) async {
        while !Task.isCancelled, !condition() {
            let waiter = OneShot()
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    waiter.arm(continuation)
                    // Read under tracking in the same turn as the check above, so no change
                    // can slip in between.
                    withObservationTracking {
                        _ = condition()
                    } onChange: {
                        waiter.fire()
                    }
                }
            } onCancel: {
                waiter.fire()
            }
        }
    }

    /// A continuation resumed exactly once, by whichever comes first: a change or a cancellation.
    private final class OneShot: Sendable {
        private let state = Mutex<(continuation: CheckedContinuation<Void, Never>?, fired: Bool)>((nil, false))

        func arm(_ continuation: CheckedContinuation<Void, Never>) {
            let resumeNow = state.withLock { state in
                guard !state.fired else { return true }
                state.continuation = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }

        func fire() {
            let continuation = state.withLock { state in
                state.fired = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume()
        }
    }
}
