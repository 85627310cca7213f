import Foundation
import SharedKernel
import TestSupport
import Testing

@testable import RemoteStore

@Suite("Remote start: the renewal held until the first frame")
struct StartHoldTests {
    @Test("open lets every waiter go, and later waits pass at once; shut after it changes nothing")
    func opens() async {
        let hold = StartHold()
        async let first = hold.wait()
        async let second = hold.wait()
        await hold.held(2)
        hold.open()
        #expect(await [first, second] == [true, true])
        #expect(await hold.wait())
        #expect(hold.shut(), "it had opened: the caller waits for the renewal")
        #expect(await hold.wait())
    }

    @Test("shut lets every waiter go without the renewal; an open after it changes nothing")
    func shuts() async {
        let hold = StartHold()
        async let held = hold.wait()
        await hold.held(1)
        #expect(!hold.shut(), "it had not opened")
        #expect(await held == false)
        hold.open()
        #expect(await hold.wait() == false)
    }

    @Test("a cancelled waiter goes without the renewal; the others stay held")
    func cancelled() async {
        let hold = StartHold()
        let cancelled = Task { await hold.wait() }
        let other = Task { await hold.wait() }
        await hold.held(2)
        cancelled.cancel()
        #expect(await cancelled.value == false)
        #expect(hold.waiting == 1)
        hold.open()
        #expect(await other.value)
    }
}

extension RemoteSessionTests {
    @Test(
        "a start held: the known learner is let in at once, nothing is renewed until the hold opens, then once for every call waiting")
    func heldRenewal() async throws {
        try await Signed.withSignedIn { signed async throws in
            let hold = StartHold()
            let again = RemoteStore(
                server: signed.server.url, dataDirectory: signed.client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock(),
                startHold: hold)
            #expect(try await again.restoreSession(knowing: signed.learner)?.id == signed.learner.id)
            let read = Task { try await again.favourites(userID: signed.learner.id) }
            await hold.held(1)
            #expect(await again.refreshCount == 0, "held")

            hold.open()
            #expect(try await read.value.isEmpty)
            #expect(await again.refreshCount == 1)
        }
    }

    @Test(
        "an app ended before its first frame sends no renewal: the token on disk stays the one the server knows, and the next start renews it"
    )
    func endedWhileHeld() async throws {
        try await Signed.withSignedIn { signed async throws in
            let file = try signed.sessionFile
            let before = try Data(contentsOf: file)
            let hold = StartHold()
            let again = RemoteStore(
                server: signed.server.url, dataDirectory: signed.client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock(),
                startHold: hold)
            #expect(try await again.restoreSession(knowing: signed.learner)?.id == signed.learner.id)
            await hold.held(1)

            await again.finish()
            // Opened late (the first frame after the end): the renewal was shut, never sent.
            hold.open()
            await again.settleSession()

            #expect(await again.refreshCount == 0)
            #expect(try Data(contentsOf: file) == before, "no renewal: the stored token unchanged")
            let next = RemoteStore(
                server: signed.server.url, dataDirectory: signed.client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
            #expect(try await next.restoreSession()?.id == signed.learner.id, "the token still works")
        }
    }
}
