import SharedKernel
import Synchronization
import TestSupport
import Testing

@Suite("withDeadline: an answer within a time limit, on the caller's clock")
struct DeadlineTests {
    @Test("an answer before the deadline is returned, and its timer is gone")
    func answerInTime() async throws {
        let (clock, gate) = makeSUT()
        let running = Task { try await withDeadline(.seconds(5), on: clock) { await gate.value() } }
        await clock.waitForSleeper()

        clock.advance(by: .seconds(4))
        gate.open(with: 42)

        #expect(try await running.value == 42)
        #expect(clock.sleeperCount == 0)
    }

    @Test("at the deadline the operation is cancelled and DeadlineExceeded thrown once it has ended")
    func pastTheDeadline() async {
        let (clock, gate) = makeSUT()
        let running = Task { try await withDeadline(.seconds(5), on: clock) { await gate.value() } }
        await clock.waitForSleeper()

        clock.advance(by: .seconds(5))

        await #expect(throws: DeadlineExceeded()) { try await running.value }
        #expect(gate.wasCancelled)
    }

    @Test("the operation's own failure before the deadline is thrown as it is")
    func ownFailure() async {
        let clock = ManualClock()

        await #expect(throws: Refused.self) {
            try await withDeadline(.seconds(5), on: clock) { () async throws -> Int in throw Refused() }
        }
    }

    @Test("a caller cancelled before either comes is not told the deadline passed")
    func callerCancelled() async {
        let (clock, gate) = makeSUT()
        let running = Task {
            try await withDeadline(.seconds(5), on: clock) {
                let value = await gate.value()
                try Task.checkCancellation()
                return value
            }
        }
        await clock.waitForSleeper()

        running.cancel()

        await #expect(throws: CancellationError.self) { try await running.value }
        #expect(gate.wasCancelled)
    }

    // MARK: - Helpers

    private func makeSUT() -> (ManualClock, PendingAnswer) {
        (ManualClock(), PendingAnswer())
    }

    private struct Refused: Error {}
}

/// An operation's answer that comes when the test gives it; with `hearsCancellation` a
/// cancelled wait ends at once with 0 (noting it was cancelled), without it the wait goes on
/// (a statement stuck on a lock).
final class PendingAnswer: Sendable {
    private struct State {
        var answer: Int?
        var cancelled = false
        var waiting: CheckedContinuation<Int, Never>?
    }

    private let state = Mutex(State())
    private let hearsCancellation: Bool

    init(hearsCancellation: Bool = true) {
        self.hearsCancellation = hearsCancellation
    }

    var wasCancelled: Bool { state.withLock { $0.cancelled } }

    func open(with value: Int) { settle(value, cancelled: false) }

    func value() async -> Int {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: Int? = state.withLock { state in
                    if let answer = state.answer { return answer }
                    state.waiting = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            if hearsCancellation {
                settle(0, cancelled: true)
            } else {
                state.withLock { $0.cancelled = true }
            }
        }
    }

    private func settle(_ value: Int, cancelled: Bool) {
        let waiting: CheckedContinuation<Int, Never>? = state.withLock { state in
            guard state.answer == nil else { return nil }
            state.answer = value
            if cancelled { state.cancelled = true }
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(returning: value)
    }
}
