import SharedKernel
import Testing

@Suite("DatabaseUse: what waits for a connection and what holds one")
struct DatabaseUseTests {
    @Test("a call waits, holds (once, however often it says so), and leaves from either state")
    func visits() {
        let use = DatabaseUse()
        let holding = use.arrive()
        let waiting = use.arrive()
        holding.hold()
        holding.hold()
        let during = (use.inUse, use.waiting)
        holding.leave()
        waiting.leave()
        waiting.leave()

        #expect(during == (1, 1))
        #expect(use.inUse == 0 && use.waiting == 0)
    }

    @Test("a watcher is woken by the change that satisfies it, and at once when it already holds")
    func watchers() async {
        let use = DatabaseUse()
        let visit = use.arrive()
        async let held: Void = use.waitUntil { $0 == DatabaseUse.Counts(waiting: 0, inUse: 1) }
        await use.waitUntil { $0.waiting == 1 }
        visit.hold()
        await held
        visit.leave()
        await use.waitUntil { $0 == DatabaseUse.Counts() }
    }
}
