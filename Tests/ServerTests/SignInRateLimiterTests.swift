import Foundation
import PostgresStore
import ServerTestSupport
import SharedKernel
import Synchronization
import TestSupport
import Testing

@testable import Server

@Suite("Sign-in rate limit")
struct SignInRateLimiterTests {
    /// A clock the test moves by hand.
    final class Clock: Sendable {
        private let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
    }

    /// `nil` when the attempt was counted (and settled as failed), else the Retry-After.
    private func guess(_ sut: SignInRateLimiter, _ email: String = "a@example.com", from address: String = "10.0.0.1") async -> Int? {
        do {
            let attempt = try await sut.reserve(email: email, address: address)
            await sut.settle(attempt, .failed)
            return nil
        } catch {
            return error.retryAfter
        }
    }

    @Test("the 10th failure from one address blocks that address for the email until the oldest failure leaves the window")
    func blocksThenLetsGo() async {
        let (sut, clock) = makeSUT()
        for _ in 1...9 {
            #expect(await guess(sut) == nil)
            clock.advance(10)
        }

        let tenth = await guess(sut, "A@example.com ")
        let afterTen = await guess(sut)
        let otherEmail = await guess(sut, "b@example.com")
        clock.advance(810)
        let afterWindow = await guess(sut)

        #expect(tenth == nil, "the same email however it is typed")
        #expect(afterTen == 810, "the first failure was 90 s ago: 900 − 90")
        #expect(otherEmail == nil)
        #expect(afterWindow == nil)
    }

    @Test("a guesser at another address cannot lock the owner out: the owner's address has its own count")
    func otherAddress() async {
        let (sut, _) = makeSUT()
        for _ in 1...10 { _ = await guess(sut, from: "203.0.113.9") }

        let attacker = await guess(sut, from: "203.0.113.9")
        let owner = await guess(sut, from: "198.51.100.7")

        #expect(attacker != nil)
        #expect(owner == nil)
    }

    @Test("guesses spread over many addresses are bounded by the per-email count (100)")
    func manyAddresses() async {
        let (sut, _) = makeSUT()
        for number in 0..<100 { #expect(await guess(sut, from: "203.0.113.\(number / 9)") == nil) }

        #expect(await guess(sut, from: "198.51.100.7") != nil)
    }

    @Test("a success clears that address's failures; an attempt that checked no password is taken back")
    func settling() async throws {
        let (sut, _) = makeSUT()
        for _ in 1...9 { _ = await guess(sut) }

        let success = try await sut.reserve(email: "a@example.com", address: "10.0.0.1")
        await sut.settle(success, .succeeded)
        for _ in 1...9 { _ = await guess(sut) }
        let notMade = try await sut.reserve(email: "a@example.com", address: "10.0.0.1")
        await sut.settle(notMade, .notMade)

        #expect(await guess(sut) == nil, "9 failures after the success, the tenth now")
        #expect(await guess(sut) != nil)
    }

    @Test("40 guesses at once: exactly 10 are counted, 30 refused, on the in-process log")
    func concurrentInMemory() async {
        let (sut, _) = makeSUT()

        let counted = await Self.concurrentGuesses(sut, count: 40)

        #expect(counted == 10)
    }

    @Test(
        "40 guesses at once on two servers' PostgreSQL log: exactly 10 are counted",
        .enabled(if: PostgresTestCluster.isAvailable || PostgresTestCluster.isRequired))
    func concurrentPostgres() async throws {
        let test = try await PostgresTestDatabase.migrated()
        let clock = Clock()
        let first = SignInRateLimiter(log: PostgresSignInAttempts(database: test.database), now: { clock.now })
        let second = SignInRateLimiter(log: PostgresSignInAttempts(database: test.database), now: { clock.now })

        async let one = Self.concurrentGuesses(first, count: 20)
        async let two = Self.concurrentGuesses(second, count: 20)
        let counted = await one + two

        #expect(counted == 10)
        await test.drop()
    }

    // MARK: - Helpers

    private func makeSUT() -> (SignInRateLimiter, Clock) {
        let clock = Clock()
        return (SignInRateLimiter(now: { clock.now }), clock)
    }

    private static func concurrentGuesses(_ sut: SignInRateLimiter, count: Int) async -> Int {
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask {
                    guard let attempt = try? await sut.reserve(email: "a@example.com", address: "10.0.0.1") else { return false }
                    await sut.settle(attempt, .failed)
                    return true
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
    }
}

private extension Error {
    var retryAfter: Int? { (self as? APIFailure)?.retryAfter }
}
