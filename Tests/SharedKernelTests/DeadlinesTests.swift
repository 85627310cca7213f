import TestSupport
import Testing

@testable import SharedKernel

@Suite("Deadlines: calls past their limit, watched by one task for all")
struct DeadlinesTests {
    @Test("each call past its limit is told, in the order they started; the watch ends with the last call and starts again with the next")
    func expiry() async {
        let (sut, clock) = makeSUT(limit: .seconds(5))
        for _ in 0..<2 {  // the second round finds the first round's watch ended
            let (told, tell) = AsyncStream<String>.makeStream()
            let first = sut.add { tell.yield("first") }
            let second = sut.add { tell.yield("second") }
            await clock.waitForSleeper()
            var heard = told.makeAsyncIterator()

            clock.advance(by: .seconds(5))

            #expect(await heard.next() == "first")
            #expect(await heard.next() == "second")
            sut.remove(first)
            sut.remove(second)
        }
    }

    @Test("a call removed before its deadline is not told")
    func removedCall() async {
        let (sut, clock) = makeSUT(limit: .seconds(5))
        let (told, tell) = AsyncStream<String>.makeStream()
        let early = sut.add { tell.yield("early") }
        await clock.waitForSleeper()
        clock.advance(by: .seconds(1))
        _ = sut.add { tell.yield("late") }

        sut.remove(early)
        clock.advance(by: .seconds(4))
        clock.advance(by: .seconds(1))

        var heard = told.makeAsyncIterator()
        #expect(await heard.next() == "late")
    }

    @Test("an answer within the limit is returned")
    func answerInTime() async throws {
        let (sut, clock) = makeSUT(limit: .seconds(5))
        let answer = PendingAnswer()
        let running = Task { try await sut.run { await answer.value() } }
        await clock.waitForSleeper()

        clock.advance(by: .seconds(4))
        answer.open(with: 7)

        #expect(try await running.value == 7)
        clock.advance(by: .seconds(1))  // the watch ends
    }

    @Test("past the limit the caller is told at once, though the call does not answer its cancellation")
    func pastTheLimit() async {
        let (sut, clock) = makeSUT(limit: .seconds(5))
        let stuck = PendingAnswer(hearsCancellation: false)
        let running = Task { try await sut.run { await stuck.value() } }
        await clock.waitForSleeper()

        clock.advance(by: .seconds(5))

        await #expect(throws: DeadlineExceeded()) { try await running.value }
        #expect(stuck.wasCancelled)
        stuck.open(with: 0)
    }

    @Test("a cancelled caller is told at once, and the call cancelled")
    func callerCancelled() async {
        let (sut, clock) = makeSUT(limit: .seconds(5))
        let stuck = PendingAnswer(hearsCancellation: false)
        let running = Task { try await sut.run { await stuck.value() } }
        await clock.waitForSleeper()

        running.cancel()

        await #expect(throws: CancellationError.self) { try await running.value }
        stuck.open(with: 0)
        clock.advance(by: .seconds(5))  // the watch ends
    }

    // MARK: - Helpers

    private func makeSUT(limit: Duration) -> (Deadlines<ManualClock>, ManualClock) {
        let clock = ManualClock()
        return (Deadlines(limit: limit, clock: clock), clock)
    }
}
