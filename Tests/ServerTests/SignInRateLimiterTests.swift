import Foundation
@testable import Server
import Synchronization
import Testing

@Suite("Sign-in rate limit")
struct SignInRateLimiterTests {
    /// A clock the test moves by hand.
    final class Clock: Sendable {
        private let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
    }

    private func makeSUT() -> (SignInRateLimiter, Clock) {
        let clock = Clock()
        return (SignInRateLimiter(limit: 10, window: 900, now: { clock.now }), clock)
    }

    @Test("the 10th failure in the window blocks the email until the oldest failure leaves it")
    func blocksThenLetsGo() async {
        let (sut, clock) = makeSUT()
        for _ in 1...9 {
            await sut.recordFailure(for: "a@example.com")
            clock.advance(10)
        }
        let afterNine = await sut.retryAfter(for: "a@example.com")
        await sut.recordFailure(for: "A@example.com ")
        let afterTen = await sut.retryAfter(for: "a@example.com")
        let otherEmail = await sut.retryAfter(for: "b@example.com")
        clock.advance(810)
        let afterWindow = await sut.retryAfter(for: "a@example.com")

        #expect(afterNine == nil)
        #expect(afterTen == 810, "the first failure was 90 s ago: 900 − 90")
        #expect(otherEmail == nil)
        #expect(afterWindow == nil)
    }

    @Test("a success clears the email's failures")
    func successClears() async {
        let (sut, _) = makeSUT()
        for _ in 1...9 { await sut.recordFailure(for: "a@example.com") }

        await sut.recordSuccess(for: "a@example.com")
        await sut.recordFailure(for: "a@example.com")

        #expect(await sut.retryAfter(for: "a@example.com") == nil)
    }
}
