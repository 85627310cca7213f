import SharedKernel
import Synchronization
import TestSupport
import Testing

@testable import AppShell

@Suite("Outages: tries again by itself, says when, recovers once")
@MainActor
struct OutageMonitorTests {
    @Test("the wait between tries: 1 s, then never more than 2 s, however long the outage")
    func backoff() {
        let waits = (0..<8).map { OutageMonitor.backoff(afterFailures: $0) } + [OutageMonitor.backoff(afterFailures: 1_000)]
        #expect(waits == [1, 2, 2, 2, 2, 2, 2, 2, 2].map { Duration.seconds($0) })
    }

    @Test("it tries until the server answers, then stops, clears the message and refreshes once")
    func triesUntilAnswered() async {
        let answers = Mutex([false, false, true])
        let probes = Mutex(0)
        let clock = ManualClock()
        let shellClock = ShellClock(clock)
        let monitor = OutageMonitor(
            host: "edugo.example:8080",
            clock: shellClock,
            probe: {
                probes.withLock { $0 += 1 }
                return answers.withLock { $0.isEmpty ? true : $0.removeFirst() }
            },
            delay: { _ in .seconds(1) }
        )
        let recovered = AsyncStream.makeStream(of: Void.self)
        var recoveries = 0
        monitor.onRecovered = {
            recoveries += 1
            recovered.continuation.yield()
        }
        #expect(monitor.message(at: shellClock.now) == nil)
        monitor.serverUnreachable()
        monitor.serverUnreachable()
        #expect(monitor.message(at: shellClock.now)?.english.hasPrefix("Cannot reach edugo.example:8080 — retrying") == true)
        for _ in 1...3 {
            // Each try is due a second after the one before failed.
            await clock.waitForSleeper()
            clock.advance(by: .seconds(1))
        }
        var iterator = recovered.stream.makeAsyncIterator()
        await iterator.next()
        #expect(probes.withLock { $0 } == 3)
        #expect(recoveries == 1)
        #expect(monitor.message(at: shellClock.now) == nil)
        monitor.serverReachable()
        #expect(recoveries == 1, "said once")
    }

    @Test("the countdown counts whole seconds up, and says now when the try is due")
    func countdown() {
        let monitor = OutageMonitor(host: "h:1", clock: ShellClock(ManualClock()), probe: { false }, delay: { _ in .seconds(4) })
        monitor.serverUnreachable()
        guard let due = monitor.retryAt else {
            Issue.record("no try scheduled")
            return
        }
        #expect(monitor.message(at: due - .milliseconds(3_500))?.english == "Cannot reach h:1 — retrying in 4s")
        #expect(monitor.message(at: due - .seconds(1))?.english == "Cannot reach h:1 — retrying in 1s")
        #expect(monitor.message(at: due)?.english == "Cannot reach h:1 — retrying now")
        monitor.stop()
    }
}
