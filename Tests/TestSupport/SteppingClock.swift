import Foundation
import Synchronization

/// The wall clock, made strictly increasing: each reading is at least a millisecond (what the
/// stores keep of a date) after the one before. Two writes a test makes one after the other
/// then never share a time, however fast the machine, so "the most recent first" is decided.
public final class SteppingClock: Sendable {
    private struct State {
        var offset: TimeInterval = 0
        var last = Date.distantPast
    }

    private let state = Mutex(State())

    public init() {}

    public func now() -> Date {
        let wall = Date()
        return state.withLock { state in
            state.last = max(wall.addingTimeInterval(state.offset), state.last.addingTimeInterval(0.001))
            return state.last
        }
    }

    /// Moves the clock on by `seconds` (a test's later day, an expiry passed).
    public func advance(by seconds: TimeInterval) {
        state.withLock { $0.offset += seconds }
    }
}
