import EduGoAPI
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Server

@Suite("Per-address request limit")
struct ClientRateLimiterTests {
    @Test("20 a minute per route and address: the 21st waits 3 s; other addresses and routes have their own")
    func bucket() async {
        let clock = SignInRateLimiterTests.Clock()
        let sut = ClientRateLimiter(perMinute: 20, now: { clock.now })
        for _ in 1...20 { #expect(await sut.admit(.signIn, from: "10.0.0.1") == nil) }

        let twentyFirst = await sut.admit(.signIn, from: "10.0.0.1")
        let otherAddress = await sut.admit(.signIn, from: "10.0.0.2")
        let otherRoute = await sut.admit(.createAccount, from: "10.0.0.1")
        clock.advance(3)
        let afterThree = await sut.admit(.signIn, from: "10.0.0.1")

        #expect(twentyFirst == 3)
        #expect(otherAddress == nil)
        #expect(otherRoute == nil)
        #expect(afterThree == nil)
    }

    @Test("0 is no limit")
    func off() async {
        let sut = ClientRateLimiter(perMinute: 0)
        for _ in 1...1_000 { #expect(await sut.admit(.refresh, from: "10.0.0.1") == nil) }
    }
}

@Suite("Password hashing slots")
struct HashGateTests {
    @Test("with every slot taken, waiters are admitted address by address, not in arrival order")
    func roundRobin() async throws {
        let sut = HashGate(slots: 1, maximumWait: .seconds(3_600))
        let hold = Gate()
        let order = Order()
        let started = Gate()
        async let first: Void = sut.run(from: "A") {
            await started.open()
            await hold.wait()
        }
        await started.wait()

        try await withThrowingTaskGroup(of: Void.self) { group in
            // Three more from A queue up first, then one from B.
            for (number, address) in ["A", "A", "A", "B"].enumerated() {
                group.addTask { try await sut.run(from: address) { order.append(address) } }
                await sut.waitUntilQueued(number + 1)
            }
            await hold.open()
            try await group.waitForAll()
        }
        try await first

        #expect(order.addresses == ["A", "B", "A", "A"])
    }

    @Test("a request that would wait past the limit is told the server is busy (503 with Retry-After)")
    func busy() async throws {
        let sut = HashGate(slots: 1, maximumWait: .milliseconds(1))
        let hold = Gate()
        let started = Gate()
        async let first: Void = sut.run(from: "A") {
            await started.open()
            await hold.wait()
        }
        await started.wait()

        await #expect(throws: APIFailure.busy) { try await sut.run(from: "B") {} }
        await hold.open()
        try await first
        #expect(APIFailure.busy.code.rawValue == "unavailable" && APIFailure.busy.retryAfter == 1)
    }

    @Test("a waiting request that is cancelled (its client gone) leaves the queue at once, and the next one still gets the slot")
    func cancelledWaiter() async throws {
        let sut = HashGate(slots: 1, maximumWait: .seconds(3_600), clock: ManualClock())
        let hold = Gate()
        let started = Gate()
        async let first: Void = sut.run(from: "A") {
            await started.open()
            await hold.wait()
        }
        await started.wait()

        let gone = Task { try await sut.run(from: "B") {} }
        await sut.waitUntilQueued(1)
        gone.cancel()
        await #expect(throws: APIFailure.busy) { try await gone.value }
        #expect(await sut.load.queued == 0, "out of the queue without waiting for the hour")

        let next = Task { try await sut.run(from: "C") { true } }
        await sut.waitUntilQueued(1)
        await hold.open()
        try await first
        #expect(try await next.value)
        #expect(await sut.load == (running: 0, queued: 0))
    }
}

/// The order in which requests got a slot.
private final class Order: Sendable {
    private let list = Mutex<[String]>([])
    func append(_ address: String) { list.withLock { $0.append(address) } }
    var addresses: [String] { list.withLock { $0 } }
}
